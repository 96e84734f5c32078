import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// A navd on a private bus reading one route file (`--routes`, or with `atDefaultPlace` the
/// `routes.yaml` of its temporary `XDG_CONFIG_HOME`), state kept in a temporary directory: for
/// tests that crash it, edit or remove the file, and start it again. Stopped by pid and removed
/// when released.
final class NavdCrashEdit {
    let bus: PrivateBus
    let navd: NavdProcess
    let stateDirectory: String
    /// The route file navd reads.
    let routeFile: String
    let client: Connection

    /// Writes `routes` to the route file and starts navd on it.
    init(routes: String, atDefaultPlace: Bool = false) throws {
        bus = try PrivateBus()
        stateDirectory = NavdProcess.temporaryStateDirectory()
        let file = stateDirectory + "-routes.yaml"
        navd = NavdProcess(
            bus: bus, stateDirectory: stateDirectory, extraArguments: atDefaultPlace ? [] : ["--routes", file])
        routeFile = atDefaultPlace ? navd.configDirectory + "/routes.yaml" : file
        try routes.write(toFile: routeFile, atomically: true, encoding: .utf8)
        try navd.start()
        client = try Connection(.address(bus.address))
    }

    deinit {
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(stateDirectory)
        unlink(stateDirectory + "-routes.yaml")
    }

    /// Replaces the route file with `text` in one rename, as an editor does.
    func write(_ text: String) throws {
        try text.write(toFile: routeFile, atomically: true, encoding: .utf8)
    }

    /// Removes the route file.
    func removeRouteFile() {
        unlink(routeFile)
    }

    /// `kill -9`, then `edit` (the route file's new text; nil removes it), then a start; returns
    /// the state after the start.
    @discardableResult
    func crashEditAndStart(_ edit: String?) throws -> NavigatorSnapshot {
        navd.kill9()
        if let edit { try write(edit) } else { removeRouteFile() }
        try navd.start()
        return try client.snapshot(at: Navigator.objectPath.rawValue)
    }

    /// The default navigator's state as the tests compare it.
    func snapshot() throws -> NavigatorSnapshot { try client.snapshot(at: Navigator.objectPath.rawValue) }

    /// `History` as (revision, cause), newest first.
    func history() throws -> [(revision: UInt64, cause: String)] {
        try client.history(at: Navigator.objectPath.rawValue)
    }

    /// The routes of the visible path.
    func routes() throws -> [String] { try client.navigatorRoutes() }

    /// The lines of the current navd's log at `level` (`warning`, `error`).
    func logLines(_ level: String) -> [String] {
        navd.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("navd: \(level): ") }
    }

    /// Checks what every restart after an edit must show: each answered revision in History
    /// with the cause it was answered with, the repair as the one `reconcile` revision right
    /// after them (with a warning logged), a next change accepted after it, and a clean restart
    /// (SIGTERM, start) that keeps all of it and repairs nothing again. `change` makes the next
    /// change; returns the state after the clean restart.
    @discardableResult
    func expectReplayedThenRepaired(
        _ answered: [(revision: UInt64, cause: String)], warningMentioning: String,
        change: (NavdCrashEdit) throws -> UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> NavigatorSnapshot {
        let last = answered.map(\.revision).max() ?? 1
        let history = try history()
        let expected = [(last + 1, "reconcile")] + answered.reversed()
        #expect(
            history.prefix(expected.count).map { "\($0.revision) \($0.cause)" } == expected.map { "\($0.0) \($0.1)" },
            "every answered change replayed, then the repair: \(history)\n\(navd.stderr)", sourceLocation: sourceLocation)
        #expect(
            logLines("warning").contains { $0.contains(warningMentioning) },
            "a warning names the repair (\(warningMentioning)): \(navd.stderr)", sourceLocation: sourceLocation)
        #expect(logLines("error").isEmpty, "no error at start: \(navd.stderr)", sourceLocation: sourceLocation)
        let next = try change(self)
        #expect(next == last + 2, "the next change is accepted after the repair", sourceLocation: sourceLocation)
        let before = try snapshot()
        #expect(navd.stop() == 0, sourceLocation: sourceLocation)
        try navd.start()
        let after = try snapshot()
        #expect(after == before, "a clean restart keeps everything: \(before) → \(after)", sourceLocation: sourceLocation)
        #expect(
            logLines("warning").isEmpty && logLines("error").isEmpty, "a clean restart repairs nothing: \(navd.stderr)",
            sourceLocation: sourceLocation)
        return after
    }
}

/// The route files of the crash-then-edit tests: two tabs, routes with params, presentations,
/// a fact and a flow, so that each kind of edit has something to take away.
enum EditedRouteFiles {
    static let flow = """
        flows:
          buy:
            start: pay
            presentation: sheet
            outputs:
              done: {}

        """

    static let base = """
        tabs:
          - name: main
            root: home
          - name: other
            root: side
        routes:
          home: { title: Home }
          side: { title: Side }
          orange: { title: Orange }
          yellow: { title: Yellow }
          extra: { title: Extra }
          item:
            params:
              n: { type: int, required: true }
          help: { presentations: [sheet] }
          pay: { presentations: [push, sheet] }
        facts:
          member: { type: bool, default: false }

        """ + flow

    /// `base` with `old` replaced by `new` (which must be there).
    static func edited(_ old: String, _ new: String) -> String {
        precondition(base.contains(old), "the base route file has no '\(old)'")
        return base.replacingOccurrences(of: old, with: new)
    }

    /// `base` as a single stack rooted at `home` (the `other` tab's routes stay).
    static let untabbed = "root: home\n" + edited("tabs:\n  - name: main\n    root: home\n  - name: other\n    root: side\n", "")
}
