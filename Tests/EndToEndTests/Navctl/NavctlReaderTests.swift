import Foundation
import NavdClient
import TestSupport
import Testing

/// navctl's readers against a real navd: state, tree, routes, history, status, and the completion helpers.
@Suite("navctl reads the tree", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct NavctlReaderTests {
    @Test("state: one line, or the documented JSON shape with cause \"state\"")
    func state() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().push("orange")
        let human = try fixture.navctl("state")
        #expect(human.status == 0 && human.stdout == "2 state rainbow: red > orange\n", "\(human)")
        let json = try runNavctl(["--json", "--address", fixture.bus.address, "state"], bus: fixture.bus)
        let document = try json.json()
        #expect(document.integer("revision") == 2)
        #expect(document.string("cause") == "state")
        #expect(document.string("tab") == "rainbow")
        #expect(document.pathRoutes == ["red", "orange"])
        #expect(document.string("top") == "orange")
        #expect(document.integer("depth") == 2)
        #expect(try fixture.navctl("state", "-q").stdout.isEmpty)
        // --system reaches the bus named by DBUS_SYSTEM_BUS_ADDRESS (here the private bus).
        let system = try runNavctl(["state", "--system"], bus: fixture.bus)
        #expect(system.status == 0 && system.stdout == "2 state rainbow: red > orange\n", "\(system)")
    }

    @Test("tree: tabs with the selected one marked, stacks, layers indented under their presenter")
    func tree() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().push("orange")
        _ = try fixture.client().present("modal", style: .sheet)
        let human = try fixture.navctl("tree")
        #expect(human.status == 0, "\(human)")
        let lines = human.lines
        #expect(lines.first == "revision 3")
        #expect(lines.contains("* rainbow"))
        #expect(lines.contains("  news"))
        #expect(lines.contains("  profile"))
        #expect(lines.contains { $0.hasPrefix("    orange  (") })
        #expect(lines.contains { $0.hasPrefix("      [sheet] modal  (") && $0.hasSuffix(")  <- top") })
        let document = try fixture.navctl("tree", "--json").json()
        #expect(document.integer("revision") == 3)
        guard case .array(let nodes)? = document["nodes"] else { Issue.record("no nodes"); return }
        #expect(nodes.filter { $0.string("kind") == "tab" }.compactMap { $0.string("name") } == ["rainbow", "news", "profile"])
        #expect(nodes.contains { $0.string("kind") == "sheet" && $0.string("name") == "modal" })
    }

    @Test("routes: a table, JSON with declared params, and --names for completion")
    func routes() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("routes")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.contains { $0.hasPrefix("news-item") && $0.contains("id:int") && $0.contains("/news/{id}") })
        let names = try fixture.navctl("routes", "--names").lines
        for route in ["red", "orange", "yellow", "green", "teal", "blue", "purple", "news-item", "login", "modal"] {
            #expect(names.contains(route), "\(route) missing from \(names)")
        }
        guard case .array(let routes) = try fixture.navctl("routes", "--json").json() else {
            Issue.record("routes --json is not an array"); return
        }
        let newsItem = routes.first { $0.string("name") == "news-item" }
        #expect(newsItem?["params"] == .object([("id", .string("int"))]))
        #expect(newsItem?["required"] == .array([.string("id")]))
        #expect(newsItem?["link"] == .string("/news/{id}"))
        let red = routes.first { $0.string("name") == "red" }
        #expect(red?["hints"]?["color"] == .string("red"))
    }

    @Test("history -n N lists the newest changes first")
    func history() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().push("orange")
        _ = try fixture.client().pop()
        let human = try fixture.navctl("history", "-n", "2")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.count == 2)
        #expect(human.lines.first?.hasPrefix("3  pop") == true, "\(human)")
        #expect(human.lines.last?.hasPrefix("2  push") == true, "\(human)")
        guard case .array(let items) = try fixture.navctl("history", "--json").json() else {
            Issue.record("history --json is not an array"); return
        }
        #expect(items.first?.integer("revision") == 3)
        #expect(items.first?.string("cause") == "pop")
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(abs((items.first?.integer("time") ?? 0) - now) < 120_000_000)
    }

    @Test("status: running, version, revision and bus; hidden tabs/states helpers")
    func status() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("status")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.first?.hasPrefix("navd ") == true)
        #expect(human.stdout.contains("is running on \(fixture.bus.address)"))
        #expect(human.stdout.contains("revision 1, tab rainbow, top red, depth 1"))
        let document = try fixture.navctl("status", "--json").json()
        #expect(document["running"] == .bool(true))
        #expect(document.integer("revision") == 1)
        #expect(document["tabs"] == .array([.string("rainbow"), .string("news"), .string("profile")]))
        #expect(document.string("version")?.isEmpty == false)
        #expect(try fixture.navctl("tabs").lines == ["rainbow", "news", "profile"])
        #expect(try fixture.navctl("states").lines.contains("end"))
    }
}
