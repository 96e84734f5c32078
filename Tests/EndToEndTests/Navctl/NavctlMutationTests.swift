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
        try fixture.navctl("push", "orange").expectOutput("2 push rainbow: red > orange\n")
        let json = try runNavctl(["push", "yellow", "--json", "--address", fixture.bus.address], bus: fixture.bus)
        // The state document, and the pushed screen's id.
        json.expectJSON("""
            {"revision": 3, "cause": "push", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#7", "route": "orange", "presentation": "push", "params": {}},
                      {"id": "#8", "route": "yellow", "presentation": "push", "params": {}}],
             "top": "yellow", "depth": 3, "id": "#8"}
            """)
        let quiet = try fixture.navctl("-q", "push", "green")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet)")
    }

    @Test("push converts key=value to the declared type: id=42 travels as an int")
    func pushConvertsParams() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("--json", "push", "news-item", "id=42").expectJSON("""
            {"revision": 2, "cause": "push", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#7", "route": "news-item", "presentation": "push", "params": {"id": 42}}],
             "top": "news-item", "depth": 2, "id": "#7"}
            """)
        let state = try fixture.client().send(.getState)
        #expect(state.top?.params == ["id": .int(42)])
    }

    @Test("pop, pop-to, root and back")
    func popping() throws {
        let fixture = try NavdOnPrivateBus()
        for route in ["orange", "yellow", "green", "teal"] { _ = try fixture.client().send(.push(route)) }
        try fixture.navctl("pop").expectOutput("6 pop rainbow: red > orange > yellow > green\n")
        try fixture.navctl("pop-to", "orange").expectOutput("7 popto rainbow: red > orange\n")
        try fixture.navctl("back").expectOutput("8 back rainbow: red\n")
        _ = try fixture.client().send(.push("blue"))
        try fixture.navctl("root", "--json").expectJSON("""
            {"revision": 10, "cause": "poptoroot", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}
            """)
    }

    @Test("replace and set-stack (ROUTE;key=value screens)")
    func replacing() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("replace", "blue").expectOutput("2 replace rainbow: blue\n")
        // Every screen of the new stack is new, its root too.
        try fixture.navctl("set-stack", "red", "orange", "news-item;id=5", "--json").expectJSON("""
            {"revision": 3, "cause": "setstack", "tab": "rainbow",
             "path": [{"id": "#8", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#9", "route": "orange", "presentation": "push", "params": {}},
                      {"id": "#10", "route": "news-item", "presentation": "push", "params": {"id": 5}}],
             "top": "news-item", "depth": 3}
            """)
    }

    @Test("present --sheet / --cover, dismiss, dismiss --all")
    func modals() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("present", "modal", "--sheet").expectOutput("2 present rainbow: red > [sheet] modal\n")
        try fixture.navctl("present", "modal", "--cover", "--json").expectJSON("""
            {"revision": 3, "cause": "present", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#7", "route": "modal", "presentation": "sheet", "params": {}},
                      {"id": "#8", "route": "modal", "presentation": "cover", "params": {}}],
             "top": "modal", "depth": 3, "id": "#8"}
            """)
        try fixture.navctl("dismiss").expectOutput("4 dismiss rainbow: red > [sheet] modal\n")
        _ = try fixture.client().send(.present("modal", style: .cover))
        try fixture.navctl("dismiss", "--all").expectOutput("6 dismissall rainbow: red\n")
    }

    @Test("tab and open (links and named states)")
    func tabsAndLinks() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("tab", "news").expectOutput("2 selecttab news: news-list\n")
        // A link builds its stack anew from the tab's root.
        try fixture.navctl("open", "/news/7", "--json").expectJSON("""
            {"revision": 3, "cause": "open", "tab": "news",
             "path": [{"id": "#7", "route": "news-list", "presentation": "root", "params": {}},
                      {"id": "#8", "route": "news-item", "presentation": "push", "params": {"id": 7}}],
             "top": "news-item", "depth": 2}
            """)
        try fixture.navctl("open", "end").expectOutput("4 open rainbow: red > purple\n")
    }

    @Test("apply reads a batch from a file or stdin, as one revision, with --expect")
    func apply() throws {
        let fixture = try NavdOnPrivateBus()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navctl-batch-\(getpid()).json")
        try #"[{"op": "push", "route": "orange"}, {"op": "push", "route": "news-item", "params": {"id": "3"}}]"#
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try fixture.navctl("apply", file.path).expectOutput("2 apply rainbow: red > orange > news-item\n")
        #expect(try fixture.client().send(.getState).top?.params == ["id": .int(3)])
        let fromStdin = try fixture.navctl("apply", "-", "--expect", "2", "--json",
                                           standardInput: #"{"ops": [{"op": "pop"}, {"op": "pop"}]}"#)
        fromStdin.expectJSON("""
            {"revision": 3, "cause": "apply", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}
            """)
    }

    @Test("undo and redo")
    func undoRedo() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        try fixture.navctl("undo").expectOutput("3 undo rainbow: red\n")
        try fixture.navctl("redo", "--json").expectJSON("""
            {"revision": 4, "cause": "redo", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#7", "route": "orange", "presentation": "push", "params": {}}],
             "top": "orange", "depth": 2}
            """)
    }

    @Test("a no-op prints the unchanged revision and exits 0")
    func noOp() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("root").expectOutput("1 poptoroot rainbow: red\n")
    }
}
