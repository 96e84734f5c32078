import Foundation
import NavdClient
import TestSupport
import Testing

/// A param written by any caller (`Push call-error {message: "\e[2J\e]0;pwned\a"}`) reached navwatch's
/// terminal raw: the full-screen view set the terminal's title to `pwned` and cleared the screen. The view,
/// `--once` and every line mode now show it escaped.
@Suite("nothing from the bus reaches navwatch's terminal", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(2)))
struct NavwatchTerminalSafetyTests {
    static let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}1m"
    static let shown = #"\e[2J\e]0;pwned\x07\u{9b}1m"#

    /// A navd whose top screen carries the hostile param.
    func navdWithHostileParam() throws -> NavdOnPrivateBus {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        _ = try client.send(.selectTab("news"))
        _ = try client.send(.push("call-error", params: ["message": .string(Self.hostile)]))
        return fixture
    }

    @Test("--once with --tree, in lines, a template and JSON, writes no control character")
    func once() throws {
        let fixture = try navdWithHostileParam()
        for mode in [["--lines"], ["--format", "{revision} {top} {path}"], ["--json"]] {
            let result = try ChildProcess.run(
                Products.url("navwatch"), ["--address", fixture.bus.address, "--once", "--tree"] + mode,
                environment: fixture.bus.environment, timeout: 30)
            #expect(result.status == 0, "\(mode): \(result.stderr)")
            #expect(!result.stdout.unicodeScalars.contains { $0 != "\n" && $0.isTerminalControl }, "\(mode): \(result.stdout.debugDescription)")
            #expect(result.stdout.contains(mode == ["--json"] ? #"\u001b[2J\u001b]0;pwned\u0007\u009b1m"# : Self.shown), "\(mode): \(result.stdout)")
        }
    }

    @Test("names a peer on navd's name sends (a tab, a route) are escaped in the line")
    func linesFromAPeer() throws {
        let state = VisibleState(revision: 4, tab: "tab\(Self.hostile)", path: [
            Entry(id: "#1", route: "red", presentation: .root), Entry(id: "#2", route: "x\(Self.hostile)", presentation: .push),
        ])
        try NavwatchScriptedNavigator.onPrivateBus(state) { bus, _ in
            let result = try ChildProcess.run(Products.url("navwatch"), ["--address", bus.address, "--once"],
                                              environment: bus.environment, timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "4 state tab\(Self.shown): red > x\(Self.shown)\n", "\(result.stdout.debugDescription)")
        }
    }

    @Test("the terminal view shows the param escaped: the title stays, the screen is not cleared",
          .enabled(if: NavwatchTmux.isAvailable))
    func terminalView() throws {
        let fixture = try navdWithHostileParam()
        let tmux = try NavwatchTmux(navwatchOn: fixture.bus, environment: ["LANG": "C.UTF-8"])
        defer { tmux.stop() }
        let title = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"])
        let screen = tmux.waitForScreen { $0.contains("rev 3") && $0.contains("pwned") }
        #expect(screen.contains(Self.shown), "\(screen)")
        #expect(screen.split(separator: "\n").first?.contains("[news]") == true, "the tab bar was not cleared: \(screen)")
        #expect(screen.contains("news-list > call-error"), "the breadcrumb was not cleared: \(screen)")
        _ = try fixture.client().send(.push("call-error", params: ["message": .string(Self.hostile + "again")]))
        tmux.waitForScreen { $0.contains("rev 4") }
        #expect(try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"]) == title)
        #expect(title.trimmingCharacters(in: .whitespacesAndNewlines) != "pwned")
        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
    }
}
