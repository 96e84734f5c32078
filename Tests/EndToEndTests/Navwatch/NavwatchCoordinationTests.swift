import Foundation
import NavdClient
import TestSupport
import Testing

/// navwatch as the pattern's view, against the real navd: the terminal view offers the top screen's events as
/// keys and sends the one pressed (navd decides where it leads), labels a flow's first card, and `--json`
/// reports FlowFinished after the state of the change that ended the flow.
@Suite("navwatch sends events and shows flows", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(2)))
struct NavwatchCoordinationTests {
    func rows(_ screen: String) -> [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test("pressing n on red shows orange; the keys line follows the top screen; a flow's card is labelled",
          .enabled(if: NavwatchTmux.isAvailable))
    func keys() throws {
        let fixture = try NavdOnPrivateBus()
        let tmux = try NavwatchTmux(navwatchOn: fixture.bus)
        defer { tmux.stop() }
        var screen = tmux.waitForScreen { $0.contains("rev 1") && $0.contains("n next") }
        let keysLine = rows(screen).first { $0.contains("n next") } ?? ""
        #expect(keysLine.contains("r root") && keysLine.contains("e end") && keysLine.contains("m show-modal"),
                "\(screen)")
        try tmux.send("n")
        screen = tmux.waitForScreen { $0.contains("rev 2") }
        #expect(screen.contains("red > orange"), "\(screen)")
        #expect(screen.contains("rev 2 | send"), "\(screen)")
        #expect(screen.contains("next: applied"), "\(screen)")
        #expect(try fixture.client().send(.getState).path.map(\.route) == ["red", "orange"])
        try tmux.send("m")
        screen = tmux.waitForScreen { $0.contains("rev 3") && $0.contains("c close") }
        #expect(screen.contains("[cover] modal"), "\(screen)")
        #expect(!screen.contains("n next"), "the modal's keys replace orange's: \(screen)")
        try tmux.send("c")
        screen = tmux.waitForScreen { $0.contains("rev 4") && $0.contains("n next") }
        #expect(screen.contains("red > orange"), "\(screen)")
        #expect(!screen.contains("c close"), "\(screen)")

        #expect(try fixture.navctl("tab", "profile").status == 0)
        #expect(try fixture.navctl("send", "account").status == 0)
        screen = tmux.waitForScreen { $0.contains("rev 6") }
        #expect(screen.contains("[cover] login"), "\(screen)")
        #expect(screen.contains("flow auth"), "the login card is labelled with its flow: \(screen)")
        let keys = rows(screen).first { $0.contains("forgot-password") } ?? ""
        #expect(keys.contains("p forgot-password") && keys.contains("s succeeded"), "\(screen)")
        try tmux.send("s")
        screen = tmux.waitForScreen { $0.contains("rev 7") }
        #expect(screen.contains("profile > account"), "\(screen)")
        #expect(screen.contains("auth finished: signed-in") || screen.contains("succeeded: resumed"), "\(screen)")
        #expect(!screen.contains("flow auth"), "\(screen)")
        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
    }

    @Test("--json reports FlowFinished after the state of its change; --lines does not")
    func flowFinishedInJSON() throws {
        let fixture = try NavdOnPrivateBus()
        let json = try startNavwatch(["--json"], bus: fixture.bus)
        let lines = try startNavwatch(["--lines"], bus: fixture.bus)
        json.waitForLines(1)
        lines.waitForLines(1)
        let client = try fixture.client()
        let started = try client.send(.start("auth"))
        _ = try client.send(.finish("cancelled"))
        _ = try client.send(.start("auth"))
        _ = try client.send(.dismiss)
        json.waitForLines(7)
        lines.waitForLines(5)
        #expect(json.stop(with: SIGTERM) == 0)
        #expect(lines.stop(with: SIGTERM) == 0)
        #expect(started.id == "#8")
        // Each FlowFinished after the state of its change; an abandoned flow has no output.
        expectJSONLines(json.outputLines, [
            ##"{"revision": 1, "cause": "state", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}"##,
            ##"{"revision": 2, "cause": "start", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#7", "route": "login", "presentation": "cover", "params": {}}], "top": "login", "depth": 2}"##,
            ##"{"revision": 3, "cause": "finish", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}"##,
            ##"{"event": "flow-finished", "revision": 3, "flowId": "#8", "flow": "auth", "output": "cancelled", "params": {}}"##,
            ##"{"revision": 4, "cause": "start", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#9", "route": "login", "presentation": "cover", "params": {}}], "top": "login", "depth": 2}"##,
            ##"{"revision": 5, "cause": "dismiss", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}"##,
            ##"{"event": "flow-finished", "revision": 5, "flowId": "#10", "flow": "auth", "output": "", "params": {}}"##,
        ])
        #expect(lines.outputLines.count == 5 && !lines.stdoutText.contains("flow"), "\(lines.outputLines)")
    }
}
