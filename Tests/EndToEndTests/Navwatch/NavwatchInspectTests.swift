import Foundation
import NavdClient
import TestSupport
import Testing

/// `navwatch --inspect` under tmux against a real navd on a private bus, driven by navctl: ←/→ show each kept
/// revision's tree as `navctl show` draws it, a change made meanwhile joins the end, Enter + y reverts through
/// `Revert` (Enter + n does not), a hostile param is shown escaped, q exits 0.
@Suite("navwatch --inspect, the terminal timeline", .serialized,
       .enabled(if: EndToEnd.navdAvailable && NavwatchTmux.isAvailable), .timeLimit(.minutes(2)))
struct NavwatchInspectTests {
    /// The tree lines `navctl show REV` prints (its `revision N` line left out), as the view draws them.
    func shownTree(_ fixture: NavdOnPrivateBus, _ revision: UInt64) throws -> [String] {
        let result = try fixture.navctl("show", "\(revision)")
        #expect(result.status == 0, "\(result)")
        return Array(result.stdout.split(separator: "\n").dropFirst().map(String.init))
    }

    /// Whether every line of `tree` is on `screen`, in order, each on a row of its own.
    func screen(_ screen: String, shows tree: [String]) -> Bool {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = rows.firstIndex(of: tree.first?.trimmingCharacters(in: .whitespaces) ?? "") else { return false }
        return Array(rows.dropFirst(first).prefix(tree.count)) == tree.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A navd at revision 1 + the pushes in `routes`, and navwatch --inspect on it in tmux.
    func inspecting(after routes: [String], environment: [String: String] = [:]) throws -> (NavdOnPrivateBus, NavwatchTmux) {
        let fixture = try NavdOnPrivateBus()
        for route in routes { _ = try fixture.navctlSucceeding("push", route) }
        let tmux = try NavwatchTmux(navwatchOn: fixture.bus, arguments: ["--inspect"], environment: environment)
        return (fixture, tmux)
    }

    @Test("left and right show each kept revision's tree; a change made meanwhile joins the end; q exits 0")
    func move() throws {
        let (fixture, tmux) = try inspecting(after: ["orange", "yellow"])
        defer { tmux.stop() }
        let trees = try (1...3).map { try shownTree(fixture, UInt64($0)) }
        var screen = tmux.waitForScreen { $0.contains("revision 3  push") }
        #expect(self.screen(screen, shows: trees[2]), "\(screen)")
        #expect(screen.contains("inspect: kept 1-3 | newest"), "\(screen)")
        // The pushes came from navctl, run by this process's user: GetChanges names it.
        #expect(screen.contains("caller navctl(\(getuid()))"), "\(screen)")

        try tmux.send("Left")
        screen = tmux.waitForScreen { $0.contains("revision 2  push") }
        #expect(self.screen(screen, shows: trees[1]) && !screen.contains("yellow"), "\(screen)")
        #expect(screen.contains("1 newer revision"), "\(screen)")
        try tmux.send("Left")
        screen = tmux.waitForScreen { $0.contains("revision 1  (the base") }
        #expect(self.screen(screen, shows: trees[0]) && !screen.contains("orange"), "\(screen)")
        try tmux.send("Left")  // the oldest kept: stays
        try tmux.send("Right")
        screen = tmux.waitForScreen { $0.contains("revision 2  push") }
        #expect(self.screen(screen, shows: trees[1]), "\(screen)")

        // A change while the view is not at the newest: it joins the end, the view stays on revision 2.
        _ = try fixture.navctlSucceeding("push", "green")
        screen = tmux.waitForScreen { $0.contains("2 newer revisions") }
        #expect(screen.contains("revision 2  push") && screen.contains("kept 1-4"), "\(screen)")
        try tmux.send("Right")
        try tmux.send("Right")
        screen = tmux.waitForScreen { $0.contains("revision 4  push") }
        #expect(self.screen(screen, shows: try shownTree(fixture, 4)), "\(screen)")
        #expect(screen.contains("| newest"), "\(screen)")

        // At the newest, the view follows.
        _ = try fixture.navctlSucceeding("pop")
        screen = tmux.waitForScreen { $0.contains("revision 5  pop") }
        #expect(self.screen(screen, shows: try shownTree(fixture, 5)), "\(screen)")

        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
        #expect(!tmux.screen().contains("inspect: kept"), "the alternate screen was left")
    }

    @Test("Enter + n changes nothing; Enter + y reverts to the revision shown")
    func revert() throws {
        let (fixture, tmux) = try inspecting(after: ["orange", "yellow", "green"])
        defer { tmux.stop() }
        let client = try fixture.client()
        let target = try client.send(.getTreeAt(2))
        tmux.waitForScreen { $0.contains("revision 4  push") }
        try tmux.send("Left")
        try tmux.send("Left")
        tmux.waitForScreen { $0.contains("revision 2  push") }

        try tmux.send("Enter")
        var screen = tmux.waitForScreen { $0.contains("revert to revision 2?") }
        #expect(screen.contains("y reverts, any other key cancels"), "\(screen)")
        try tmux.send("n")
        screen = tmux.waitForScreen { $0.contains("revert to 2 cancelled") }
        #expect(screen.contains("revert to 2 cancelled"), "\(screen)")
        #expect(try client.send(.getState).revision == 4, "n reverted nothing")

        try tmux.send("Enter")
        tmux.waitForScreen { $0.contains("revert to revision 2?") }
        try tmux.send("y")
        screen = tmux.waitForScreen { $0.contains("reverted to 2 as revision 5") }
        #expect(screen.contains("revision 5  revert"), "the view shows the revision the revert made: \(screen)")
        let after = try client.send(.getTree)
        #expect(after.revision == 5)
        #expect(after.nodes == target.nodes && after.tab == target.selectedTab, "navd's tree is revision 2's")
        #expect(self.screen(screen, shows: try shownTree(fixture, 2)), "\(screen)")

        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
    }

    @Test("a param holding escape sequences is shown escaped: the title stays, the screen is not cleared")
    func hostileParam() throws {
        let fixture = try NavdOnPrivateBus.withHostileParam()
        let tmux = try NavwatchTmux(navwatchOn: fixture.bus, arguments: ["--inspect"], environment: ["LANG": "C.UTF-8"])
        defer { tmux.stop() }
        let title = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"])
        var screen = tmux.waitForScreen { $0.contains("revision 3  push") && $0.contains("pwned") }
        #expect(screen.contains(HostileText.shown), "\(screen)")
        #expect(screen.split(separator: "\n").first?.contains("inspect: kept 1-3") == true, "not cleared: \(screen)")
        try tmux.send("Left")
        screen = tmux.waitForScreen { $0.contains("revision 2  selecttab") }
        #expect(!screen.contains("pwned"), "\(screen)")
        try tmux.send("Right")
        screen = tmux.waitForScreen { $0.contains("revision 3  push") }
        #expect(screen.contains(HostileText.shown), "\(screen)")
        #expect(try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"]) == title)
        #expect(!tmux.screen(escapes: true).contains("\u{1B}]0;"), "no OSC reached the pane")
        try tmux.send("q")
        #expect(tmux.exitStatus() == 0)
    }

    @Test("without a terminal, or with a line mode, --inspect exits 2 and says why")
    func refused() throws {
        let fixture = try NavdOnPrivateBus()
        for extra in [[], ["--json"]] {
            let result = try ChildProcess.run(Products.url("navwatch"), ["--address", fixture.bus.address, "--inspect"] + extra,
                                              environment: fixture.bus.environment, timeout: 30)
            #expect(result.status == 2, "\(extra): \(result)")
            #expect(result.stderr.contains(extra.isEmpty ? "needs a terminal" : "--inspect draws on the terminal"),
                    "\(extra): \(result.stderr)")
        }
    }
}
