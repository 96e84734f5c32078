import Foundation
import NavdClient
import NavigatorProtocol
import TestSupport
import Testing

/// navctl's readers against a real navd: state, tree, routes, history, status, and the completion helpers.
@Suite("navctl reads the tree", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct NavctlReaderTests {
    @Test("state: one line, or the documented JSON shape with cause \"state\"")
    func state() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        try fixture.navctl("state").expectOutput("2 state rainbow: red > orange\n")
        let json = try runNavctl(["--json", "--address", fixture.bus.address, "state"], bus: fixture.bus)
        json.expectJSON("""
            {"revision": 2, "cause": "state", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#7", "route": "orange", "presentation": "push", "params": {}}],
             "top": "orange", "depth": 2}
            """)
        #expect(try fixture.navctl("state", "-q").stdout.isEmpty)
        // --system reaches the bus named by DBUS_SYSTEM_BUS_ADDRESS (here the private bus).
        let system = try runNavctl(["state", "--system"], bus: fixture.bus)
        system.expectOutput("2 state rainbow: red > orange\n")
    }

    @Test("tree: tabs with the selected one marked, stacks, layers indented under their presenter")
    func tree() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        _ = try fixture.client().send(.present("modal", style: .sheet))
        let human = try fixture.navctl("tree")
        #expect(human.status == 0, "\(human)")
        let lines = human.lines
        #expect(lines.first == "revision 3")
        #expect(lines.contains("* rainbow"))
        #expect(lines.contains("  news"))
        #expect(lines.contains("  profile"))
        #expect(lines.contains { $0.hasPrefix("    orange  (") })
        #expect(lines.contains { $0.hasPrefix("      [sheet] modal  (") && $0.hasSuffix(")  <- top") })
        // Pre-order, as GetTree sends it: each tab, then its stack, a layer under the screen that presented it.
        try fixture.navctl("tree", "--json").expectJSON("""
            {"revision": 3, "tab": "rainbow", "nodes": [
              {"id": "#1", "parent": "", "kind": "tab", "name": "rainbow", "params": {}},
              {"id": "#2", "parent": "#1", "kind": "root", "name": "red", "params": {}},
              {"id": "#7", "parent": "#2", "kind": "push", "name": "orange", "params": {}},
              {"id": "#8", "parent": "#7", "kind": "sheet", "name": "modal", "params": {}},
              {"id": "#3", "parent": "", "kind": "tab", "name": "news", "params": {}},
              {"id": "#4", "parent": "#3", "kind": "root", "name": "news-list", "params": {}},
              {"id": "#5", "parent": "", "kind": "tab", "name": "profile", "params": {}},
              {"id": "#6", "parent": "#5", "kind": "root", "name": "profile", "params": {}}]}
            """)
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
        // The demo graph (docs: the contract's demo), every route in navd's order.
        try fixture.navctl("routes", "--json").expectJSON("""
            [{"name": "red", "title": "Red", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "red", "index": 0}},
             {"name": "orange", "title": "Orange", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "orange", "index": 1}},
             {"name": "yellow", "title": "Yellow", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "yellow", "index": 2}},
             {"name": "green", "title": "Green", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "green", "index": 3}},
             {"name": "teal", "title": "Teal", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "teal", "index": 4}},
             {"name": "blue", "title": "Blue", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "blue", "index": 5}},
             {"name": "purple", "title": "Purple", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {"color": "purple", "index": 6}},
             {"name": "news-list", "title": "News", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "news-item", "title": "News item", "params": {"id": "int"}, "required": ["id"], "presentations": ["push"], "link": "/news/{id}", "hints": {}},
             {"name": "profile", "title": "Profile", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "settings", "title": "Settings", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "login", "title": "Log in", "params": {}, "required": [], "presentations": ["cover"], "link": null, "hints": {}},
             {"name": "forgot-password", "title": "Forgot password", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "modal", "title": "Modal", "params": {}, "required": [], "presentations": ["cover", "sheet"], "link": null, "hints": {}},
             {"name": "call-progress", "title": "Calling", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "call-success", "title": "Success", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "call-error", "title": "Error", "params": {"message": "string"}, "required": ["message"], "presentations": ["push"], "link": null, "hints": {}},
             {"name": "account", "title": "Account", "params": {}, "required": [], "presentations": ["push"], "link": null, "hints": {}}]
            """)
    }

    @Test("history -n N lists the newest changes first, each with its caller")
    func history() throws {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        _ = try client.send(.push("orange"))
        _ = try client.send(.pop)
        let command = ((try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
        let human = try fixture.navctl("history", "-n", "2")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.count == 2)
        #expect(human.lines.first?.hasPrefix("3  pop") == true, "\(human)")
        #expect(human.lines.first?.hasSuffix("  \(command)(\(getuid()))  rainbow/red") == true, "\(human)")
        #expect(human.lines.last?.hasPrefix("2  push") == true, "\(human)")
        #expect(human.lines.last?.hasSuffix("  \(command)(\(getuid()))  rainbow/orange") == true, "\(human)")
        // The times are navd's clock: each checked against ours, then written into the whole document.
        let history = try fixture.navctl("history", "--json")
        guard case .array(let items) = try history.json() else { Issue.record("history --json is not an array: \(history)"); return }
        let times = items.map { $0.integer("time") ?? 0 }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(times.count == 2 && times.allSatisfy { abs($0 - now) < 120_000_000 } && times == times.sorted(by: >), "\(times)")
        let caller = #""sender": "\#(client.connection.uniqueName)", "uid": \#(getuid()), "pid": \#(getpid()), "command": "\#(command)""#
        history.expectJSON("""
            [{"revision": 3, "cause": "pop", "time": \(times.first ?? 0), "method": "Pop", "args": [], \(caller),
              "tab": "rainbow", "top": "red"},
             {"revision": 2, "cause": "push", "time": \(times.last ?? 0), "method": "Push", "args": ["orange", {}], \(caller),
              "tab": "rainbow", "top": "orange"}]
            """)
    }

    @Test("status: running, version, revision and bus; hidden tabs/states helpers")
    func status() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("status")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.first?.hasPrefix("navd ") == true)
        #expect(human.stdout.contains("is running on \(fixture.bus.address)"))
        #expect(human.stdout.contains("revision 1, tab rainbow, top red, depth 1"))
        // navd's unique name is the bus's to give: checked, then written in.
        let status = try fixture.navctl("status", "--json")
        let owner = try status.json().string("owner") ?? ""
        #expect(owner.wholeMatch(of: /:1\.[0-9]+/) != nil, "\(status)")
        status.expectJSON("""
            {"running": true, "bus": "\(fixture.bus.address)", "owner": "\(owner)", "version": "\(Navigator.version)",
             "revision": 1, "tab": "rainbow", "tabs": ["rainbow", "news", "profile"],
             "top": "red", "topId": "#2", "depth": 1, "canUndo": false, "canRedo": false}
            """)
        #expect(try fixture.navctl("tabs").lines == ["rainbow", "news", "profile"])
        #expect(try fixture.navctl("states").lines.contains("end"))
    }
}
