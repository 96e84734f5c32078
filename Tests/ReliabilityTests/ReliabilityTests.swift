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
    /// the directory. With `routes`, navd serves that route file (`--routes`), written to a fresh
    /// directory of its own (removed too); `prepare` runs before navd starts. When this machine
    /// cannot run them it prints why and runs nothing.
    static func withNavd(
        _ test: String, routes: String? = nil, extraArguments: [String] = [],
        prepare: (NavdProcess) throws -> Void = { _ in }, _ body: (ReliabilityRun) async throws -> Void
    ) async throws {
        guard PrivateBus.isAvailable else {
            print("reliability: \(test) skipped: dbus-daemon is not installed")
            return
        }
        guard NavdProcess.isBuilt else {
            print("reliability: \(test) skipped: navd is not built at \(NavdProcess.executable)")
            return
        }
        let routesFolder = routes.map { _ in temporaryDirectory("routes-\(test)") }
        defer { routesFolder.map(remove) }
        let routeFile = routesFolder.map { $0 + "/routes.yaml" }
        if let routes, let routeFile { try routes.write(toFile: routeFile, atomically: true, encoding: .utf8) }
        let directory = temporaryDirectory("state-\(test)")
        let bus = try PrivateBus()
        let navd = NavdProcess(
            bus: bus, stateDirectory: directory, extraArguments: routeFile.map { ["--routes", $0] + extraArguments } ?? extraArguments)
        defer { navd.stop(); bus.stop(); remove(directory) }
        try prepare(navd)
        try navd.start()
        try await body(ReliabilityRun(bus: bus, navd: navd, directory: directory, routeFile: routeFile, seed: ReliabilityMode.seed()))
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

/// What `ReliabilityTests.withNavd` started: the bus, navd on it, navd's state directory, the
/// route file it serves (when it was given one), and the seed of the test's random choices
/// (`NAVD_RELIABILITY_SEED` replays it).
struct ReliabilityRun: Sendable {
    let bus: PrivateBus
    let navd: NavdProcess
    let directory: String
    let routeFile: String?
    let seed: UInt64
}
