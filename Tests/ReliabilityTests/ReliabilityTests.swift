import DBus
import Foundation
import TestSupport
import Testing

/// The reliability suite: bad input, crashes, concurrency, watchers, a soak and a full file
/// system, each against the real navd on a private bus, each printing its figures
/// (`reliability: …` lines). Short by default; `NAVD_RELIABILITY=long` runs the long form.
///
/// Serialized: each test starts its own bus and navd, and they measure time, so they must not
/// compete with each other for the machine's two cores.
@Suite(.serialized)
struct ReliabilityTests {
    /// Starts a private bus and a navd with persistence on (and `extraArguments`) in a fresh
    /// state directory, runs `body` with them and the run's seed, then stops both and removes
    /// the directory. When this machine cannot run them it prints why and runs nothing.
    static func withNavd(
        _ test: String, extraArguments: [String] = [], _ body: (ReliabilityRun) async throws -> Void
    ) async throws {
        guard PrivateBus.isAvailable else {
            print("reliability: \(test) skipped: dbus-daemon is not installed")
            return
        }
        guard NavdProcess.isBuilt else {
            print("reliability: \(test) skipped: navd is not built at \(NavdProcess.executable)")
            return
        }
        let directory = temporaryDirectory("state-\(test)")
        let bus = try PrivateBus()
        let navd = NavdProcess(bus: bus, stateDirectory: directory, extraArguments: extraArguments)
        defer { navd.stop(); bus.stop(); remove(directory) }
        try navd.start()
        try await body(ReliabilityRun(bus: bus, navd: navd, directory: directory, seed: ReliabilityMode.seed()))
    }

    /// `withNavd` with `check` run on a thread of its own: expects it to find no problems, and
    /// a failure shows the first `shown` of them with the seed that replays the run.
    static func expectNoProblems(
        _ test: String, extraArguments: [String] = [], shown: Int = 10,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ check: @escaping @Sendable (ReliabilityRun) throws -> [String]
    ) async throws {
        try await withNavd(test, extraArguments: extraArguments) { run in
            let problems = try await onThread(test) { try check(run) }
            #expect(
                problems.isEmpty, "seed \(run.seed):\n\(problems.prefix(shown).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
    }

    /// A new empty directory under the temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        TemporaryDirectory.make("navd-reliability-\(name)")
    }

    /// Removes a directory made by `temporaryDirectory`.
    static func remove(_ path: String) {
        TemporaryDirectory.remove(path)
    }
}

/// What `ReliabilityTests.withNavd` started: the bus, navd on it, navd's state directory, and
/// the seed of the test's random choices (`NAVD_RELIABILITY_SEED` replays it).
struct ReliabilityRun: Sendable {
    let bus: PrivateBus
    let navd: NavdProcess
    let directory: String
    let seed: UInt64
}
