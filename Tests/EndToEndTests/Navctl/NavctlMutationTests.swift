import Foundation
import NavdClient
import TestSupport
import Testing

/// Every mutating navctl command against a real navd (demo graph, fresh `--ephemeral` tree at revision 1,
/// `rainbow: red`): its human line, its JSON document and exit status 0.
@Suite("navctl changes the tree", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct NavctlMutationTests {
    @Test("push prints one line with the new revision and path; options go before or after the subcommand")
    func push() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("push", "orange")
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout == "2 push rainbow: red > orange\n")
        let json = try runNavctl(["push", "yellow", "--json", "--address", fixture.bus.address], bus: fixture.bus)
        #expect(json.status == 0, "\(json)")
        let document = try json.json()
        #expect(document.integer("revision") == 3)
        #expect(document.string("cause") == "push")
        #expect(document.string("tab") == "rainbow")
        #expect(document.pathRoutes == ["red", "orange", "yellow"])
        guard case .array(let path)? = document["path"], let top = path.last else { Issue.record("no path"); return }
        #expect(top.string("presentation") == "push")
        #expect(top.string("id") == document.string("id"))
        #expect(top["params"] == .object([]))
        let quiet = try fixture.navctl("-q", "push", "green")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet)")
    }

    @Test("push converts key=value to the declared type: id=42 travels as an int")
    func pushConvertsParams() throws {
        let fixture = try NavdOnPrivateBus()
        let result = try fixture.navctl("--json", "push", "news-item", "id=42")
        #expect(result.status == 0, "\(result)")
        let document = try result.json()
        guard case .array(let path)? = document["path"] else { Issue.record("no path"); return }
        #expect(path.last?["params"] == .object([("id", .int(42))]))
        let state = try fixture.client().state()
        #expect(state.top?.params == ["id": .int(42)])
    }

    @Test("pop, pop-to, root and back")
    func popping() throws {
        let fixture = try NavdOnPrivateBus()
        for route in ["orange", "yellow", "green", "teal"] { _ = try fixture.client().push(route) }
        #expect(try fixture.navctl("pop").stdout == "6 pop rainbow: red > orange > yellow > green\n")
        #expect(try fixture.navctl("pop-to", "orange").stdout == "7 popto rainbow: red > orange\n")
        #expect(try fixture.navctl("back").stdout == "8 back rainbow: red\n")
        _ = try fixture.client().push("blue")
        let root = try fixture.navctl("root", "--json")
        #expect(root.status == 0, "\(root)")
        #expect(try root.json().pathRoutes == ["red"])
        #expect(try root.json().string("cause") == "poptoroot")
    }

    @Test("replace and set-stack (ROUTE;key=value screens)")
    func replacing() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("replace", "blue").stdout == "2 replace rainbow: blue\n")
        let result = try fixture.navctl("set-stack", "red", "orange", "news-item;id=5", "--json")
        #expect(result.status == 0, "\(result)")
        let document = try result.json()
        #expect(document.pathRoutes == ["red", "orange", "news-item"])
        guard case .array(let path)? = document["path"] else { Issue.record("no path"); return }
        #expect(path.last?["params"] == .object([("id", .int(5))]))
        #expect(path.first?.string("presentation") == "root")
    }

    @Test("present --sheet / --cover, dismiss, dismiss --all")
    func modals() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("present", "modal", "--sheet").stdout == "2 present rainbow: red > [sheet] modal\n")
        let cover = try fixture.navctl("present", "modal", "--cover", "--json")
        #expect(cover.status == 0, "\(cover)")
        guard case .array(let path)? = try cover.json()["path"] else { Issue.record("no path"); return }
        #expect(path.map { $0.string("presentation") } == ["root", "sheet", "cover"])
        #expect(try fixture.navctl("dismiss").stdout == "4 dismiss rainbow: red > [sheet] modal\n")
        _ = try fixture.client().present("modal", style: .cover)
        #expect(try fixture.navctl("dismiss", "--all").stdout == "6 dismissall rainbow: red\n")
    }

    @Test("tab and open (links and named states)")
    func tabsAndLinks() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("tab", "news").stdout == "2 selecttab news: news-list\n")
        let link = try fixture.navctl("open", "/news/7", "--json")
        #expect(link.status == 0, "\(link)")
        #expect(try link.json().pathRoutes == ["news-list", "news-item"])
        #expect(try link.json().string("tab") == "news")
        #expect(try fixture.navctl("open", "end").stdout == "4 open rainbow: red > purple\n")
    }

    @Test("apply reads a batch from a file or stdin, as one revision, with --expect")
    func apply() throws {
        let fixture = try NavdOnPrivateBus()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navctl-batch-\(getpid()).json")
        try #"[{"op": "push", "route": "orange"}, {"op": "push", "route": "news-item", "params": {"id": "3"}}]"#
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try fixture.navctl("apply", file.path)
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.stdout == "2 apply rainbow: red > orange > news-item\n")
        #expect(try fixture.client().state().top?.params == ["id": .int(3)])
        let fromStdin = try fixture.navctl("apply", "-", "--expect", "2", "--json",
                                           standardInput: #"{"ops": [{"op": "pop"}, {"op": "pop"}]}"#)
        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(try fromStdin.json().integer("revision") == 3)
        #expect(try fromStdin.json().pathRoutes == ["red"])
    }

    @Test("undo and redo")
    func undoRedo() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().push("orange")
        #expect(try fixture.navctl("undo").stdout == "3 undo rainbow: red\n")
        let redo = try fixture.navctl("redo", "--json")
        #expect(redo.status == 0, "\(redo)")
        #expect(try redo.json().pathRoutes == ["red", "orange"])
        #expect(try redo.json().integer("revision") == 4)
    }

    @Test("a no-op prints the unchanged revision and exits 0")
    func noOp() throws {
        let fixture = try NavdOnPrivateBus()
        let result = try fixture.navctl("root")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "1 poptoroot rainbow: red\n")
    }
}
