import Foundation
import NavdClient
import TestSupport
import Testing

/// navwatch's full-screen view under tmux, read back with `capture-pane`, fed by the scripted peer
/// (so titles and colours are known): tab bar, breadcrumb, cards, sheet over the card below, status line,
/// the gone banner, resize, NO_COLOR, and `q` restoring the screen.
@Suite("navwatch draws the terminal view", .serialized,
       .enabled(if: EndToEnd.clientsAvailable && NavwatchTmux.isAvailable), .timeLimit(.minutes(1)))
struct NavwatchTerminalTests {
    func rows(_ screen: String) -> [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Runs `body` with navwatch (and `arguments`) drawing in tmux under `LANG=C`, `TERM=xterm-256color` and
    /// `environment`, fed on a private bus by a scripted peer that starts at `state`; stops all three afterwards.
    func watching(_ state: VisibleState, arguments: [String] = [], environment: [String: String] = [:],
                  _ body: (Peer, NavwatchTmux) throws -> Void) throws {
        try Peer.onPrivateBus(state) { bus, peer in
            let tmux = try NavwatchTmux(navwatchOn: bus, arguments: arguments, environment: environment)
            defer { tmux.stop() }
            try body(peer, tmux)
        }
    }

    @Test("tabs, breadcrumb, card, sheet over the card, status line; q quits and restores the screen")
    func view() throws {
        try watching(Peer.rainbow(2, ["orange"]), environment: ["LC_ALL": "C"]) { peer, tmux in
            var screen = tmux.waitForScreen { $0.contains("rev 2") }
            var lines = rows(screen)
            #expect(lines.first?.contains("[rainbow]") == true, "\(screen)")
            #expect(lines.first?.contains("  news") == true, "\(screen)")
            #expect(lines.dropFirst().first?.contains("red > orange") == true, "\(screen)")
            #expect(screen.contains("The orange screen"))
            #expect(screen.contains("2 in stack: red > orange"))
            #expect(lines.last(where: { !$0.isEmpty })?.contains("rev 2 | state | depth 2") == true, "\(screen)")
            let colored = tmux.screen(escapes: true)
            #expect(colored.contains("48;5;208"), "the orange card is drawn in orange: \(colored.debugDescription)")

            try peer.emit("present", Peer.rainbow(3, ["orange"], modal: .sheet))
            screen = tmux.waitForScreen { $0.contains("rev 3") }
            lines = rows(screen)
            #expect(screen.contains("A modal"), "\(screen)")
            #expect(screen.contains("The orange screen"), "the card below stays visible above the sheet: \(screen)")
            #expect(screen.contains("[sheet]"))
            let orangeRow = lines.firstIndex { $0.contains("The orange screen") } ?? 0
            let modalRow = lines.firstIndex { $0.contains("A modal") } ?? 0
            #expect(modalRow > orangeRow + 2, "the sheet is drawn lower, over the card below")

            peer.stop()
            screen = tmux.waitForScreen { $0.contains("navd gone") }
            #expect(screen.contains("navd gone - waiting for it to come back"), "\(screen)")

            try tmux.send("q")
            #expect(tmux.exitStatus() == 0)
            #expect(!tmux.screen().contains("[rainbow]"), "the alternate screen was left")
        }
    }

    @Test("a resize redraws to the new size")
    func resize() throws {
        try watching(Peer.rainbow(1)) { _, tmux in
            tmux.waitForScreen { $0.contains("rev 1") }
            try tmux.resize(columns: 60, rows: 16)
            let screen = tmux.waitForScreen { rows($0).count <= 17 && rows($0).dropLast().last?.contains("rev 1") == true }
            let lines = rows(screen)
            #expect(lines.dropLast().last?.contains("rev 1 | state") == true, "\(lines)")
            #expect(lines.allSatisfy { $0.count <= 60 })
            try tmux.send("C-c")
            #expect(tmux.exitStatus() == 0, "SIGINT exits 0")
        }
    }

    @Test("SIGTERM restores the terminal and exits 0")
    func terminate() throws {
        try watching(Peer.rainbow(1)) { _, tmux in
            tmux.waitForScreen { $0.contains("rev 1") }
            let watcher = try #require(tmux.commandPID(named: "navwatch"))
            kill(watcher, SIGTERM)
            #expect(tmux.exitStatus() == 0)
            #expect(!tmux.screen().contains("rev 1"), "the alternate screen was left")
        }
    }

    @Test("--tree draws the whole tree in place of the cards")
    func tree() throws {
        try watching(Peer.rainbow(5, ["orange"], modal: .cover), arguments: ["--tree"]) { _, tmux in
            let screen = tmux.waitForScreen { $0.contains("rev 5") }
            #expect(screen.contains("* rainbow"), "\(screen)")
            #expect(screen.contains("[cover] modal  (modal-5)  <- top"), "\(screen)")
            try tmux.send("q")
            #expect(tmux.exitStatus() == 0)
        }
    }

    @Test("NO_COLOR draws without colours, the card as a box")
    func noColor() throws {
        try watching(Peer.rainbow(2, ["orange"]), environment: ["NO_COLOR": "1"]) { _, tmux in
            let screen = tmux.waitForScreen { $0.contains("rev 2") }
            #expect(screen.contains("+----"), "\(screen)")
            #expect(!tmux.screen(escapes: true).contains("48;5;"))
            try tmux.send("q")
            #expect(tmux.exitStatus() == 0)
        }
    }
}
