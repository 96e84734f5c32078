import Foundation
import NavdClient
import TestSupport
import Testing

/// navwatch against the real navd, driven by the real navctl: every change arrives, in order, in line and
/// JSON mode; a restart of navd (same state dir, or ephemeral) is followed without restarting navwatch;
/// the terminal view follows navctl under tmux.
@Suite("navwatch follows navd", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct NavwatchNavdTests {
    /// The scripted changes and the line each one must produce.
    static let script: [(arguments: [String], line: String)] = [
        (["push", "orange"], "2 push rainbow: red > orange"),
        (["present", "modal", "--sheet"], "3 present rainbow: red > orange > [sheet] modal"),
        (["dismiss"], "4 dismiss rainbow: red > orange"),
        (["tab", "news"], "5 selecttab news: news-list"),
        (["open", "/news/7"], "6 open news: news-list > news-item"),
        (["undo"], "7 undo news: news-list"),
    ]

    @Test("line and JSON mode receive every change in order, then exit 0 on SIGINT / SIGTERM")
    func sequence() throws {
        let fixture = try NavdOnPrivateBus()
        let lines = try startNavwatch(["--lines"], bus: fixture.bus)
        let json = try startNavwatch(["--json"], bus: fixture.bus)
        #expect(lines.waitForLines(1) == ["1 state rainbow: red"])
        #expect(json.waitForLines(1).count == 1)
        for step in Self.script {
            let result = try fixture.navctl(["-q"] + step.arguments)
            #expect(result.status == 0, "\(step.arguments): \(result)")
        }
        lines.waitForLines(1 + Self.script.count)
        json.waitForLines(1 + Self.script.count)
        #expect(lines.stop(with: SIGINT) == 0)
        #expect(json.stop(with: SIGTERM) == 0)
        #expect(lines.outputLines == ["1 state rainbow: red"] + Self.script.map(\.line))
        // The state documents, one a change; the link builds the news stack anew, and undo brings back the old one.
        expectJSONLines(json.outputLines, [
            ##"{"revision": 1, "cause": "state", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}"##,
            ##"{"revision": 2, "cause": "push", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#7", "route": "orange", "presentation": "push", "params": {}}], "top": "orange", "depth": 2}"##,
            ##"{"revision": 3, "cause": "present", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#7", "route": "orange", "presentation": "push", "params": {}}, "##
                + ##"{"id": "#8", "route": "modal", "presentation": "sheet", "params": {}}], "top": "modal", "depth": 3}"##,
            ##"{"revision": 4, "cause": "dismiss", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#7", "route": "orange", "presentation": "push", "params": {}}], "top": "orange", "depth": 2}"##,
            ##"{"revision": 5, "cause": "selecttab", "tab": "news", "path": [{"id": "#4", "route": "news-list", "presentation": "root", "params": {}}], "top": "news-list", "depth": 1}"##,
            ##"{"revision": 6, "cause": "open", "tab": "news", "path": [{"id": "#9", "route": "news-list", "presentation": "root", "params": {}}, "##
                + ##"{"id": "#10", "route": "news-item", "presentation": "push", "params": {"id": 7}}], "top": "news-item", "depth": 2}"##,
            ##"{"revision": 7, "cause": "undo", "tab": "news", "path": [{"id": "#4", "route": "news-list", "presentation": "root", "params": {}}], "top": "news-list", "depth": 1}"##,
        ])
    }

    @Test("through a restart of navd on the same state dir: the marker, then the restored state")
    func restartWithStateDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navwatch-state-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try NavdOnPrivateBus(stateDirectory: directory.path)
        let watch = try startNavwatch(["--lines"], bus: fixture.bus)
        let json = try startNavwatch(["--json"], bus: fixture.bus)
        watch.waitForLines(1)
        json.waitForLines(1)
        #expect(try fixture.navctl("push", "orange").status == 0)
        watch.waitForLines(2)
        fixture.navd.stop()
        try fixture.navd.start()
        watch.waitForLines(4)
        #expect(try fixture.navctl("push", "yellow").status == 0)
        watch.waitForLines(5)
        json.waitForLines(5)
        #expect(watch.stop(with: SIGINT) == 0)
        #expect(json.stop(with: SIGINT) == 0)
        #expect(watch.outputLines == [
            "1 state rainbow: red", "2 push rainbow: red > orange", "-- navd gone",
            "2 restore rainbow: red > orange", "3 push rainbow: red > orange > yellow",
        ])
        #expect(json.outputLines.dropFirst(2).first == #"{"event":"gone"}"#)
    }

    @Test("through a restart of an ephemeral navd: the new tree starts at revision 1")
    func restartEphemeral() throws {
        let fixture = try NavdOnPrivateBus()
        let watch = try startNavwatch([], bus: fixture.bus)
        watch.waitForLines(1)
        #expect(try fixture.navctl("push", "green").status == 0)
        watch.waitForLines(2)
        fixture.navd.stop()
        try fixture.navd.start()
        watch.waitForLines(4)
        #expect(try fixture.navctl("push", "blue").status == 0)
        watch.waitForLines(5)
        #expect(watch.stop(with: SIGINT) == 0)
        #expect(watch.outputLines == [
            "1 state rainbow: red", "2 push rainbow: red > green", "-- navd gone", "1 start rainbow: red",
            "2 push rainbow: red > blue",
        ])
    }

    @Test("the terminal view follows navctl under tmux", .enabled(if: NavwatchTmux.isAvailable))
    func terminal() throws {
        let fixture = try NavdOnPrivateBus()
        let tmux = try NavwatchTmux(navwatchOn: fixture.bus)
        defer { tmux.stop() }
        var screen = tmux.waitForScreen { $0.contains("rev 1") }
        #expect(screen.contains("[rainbow]"), "\(screen)")
        #expect(screen.contains("news") && screen.contains("profile"), "\(screen)")
        #expect(try fixture.navctl("push", "orange").status == 0)
        #expect(try fixture.navctl("present", "modal", "--cover").status == 0)
        screen = tmux.waitForScreen { $0.contains("rev 3") }
        #expect(screen.contains("red > orange > [cover] modal"), "\(screen)")
        #expect(screen.contains("[cover]"), "\(screen)")
        #expect(screen.contains("rev 3 | present | depth 3"), "\(screen)")
        #expect(tmux.screen(escapes: true).contains("48;5;208"), "orange card in orange")
        #expect(try fixture.navctl("tab", "news").status == 0)
        screen = tmux.waitForScreen { $0.contains("rev 4") }
        #expect(screen.contains("[news]"), "\(screen)")
        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
    }
}
