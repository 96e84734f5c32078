import Foundation
import Testing
import TestFixtures
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The benchmark runs end to end with tiny counts: it exits 0 and its JSON names every
/// figure with positive numbers. No timing is asserted, only that each figure was measured.
@Suite("navd-bench smoke run", .serialized)
struct BenchSmokeTests {
    /// Every figure `navd-bench --quick` reports (growth, memory, CLI and coordination included).
    static let expectedKeys = [
        "memory.idle.private", "memory.idle.file", "memory.idle.rss", "memory.idle.pss",
        "floor.ping.serial", "floor.ping.inflight32", "floor.service.serial", "floor.service.inflight32",
        "floor.durable.serial", "floor.durable.inflight32",
        "peer.python.serial", "peer.python.inflight32",
        "latency.navd", "latency.navd.vs_durable", "latency.navd.vs_python", "latency.navd.vs_ping",
        "throughput.navd", "throughput.navd.vs_durable", "throughput.navd.vs_python", "throughput.navd.vs_ping",
        "cpu.per_change",
        "durability.floor.serial", "durability.ephemeral.latency",
        "durability.floor.inflight32", "durability.ephemeral.throughput",
        "fanout.1.floor", "fanout.1.python", "fanout.1.navd",
        "fanout.10.floor", "fanout.10.python", "fanout.10.navd",
        "fanout.50.floor", "fanout.50.python", "fanout.50.navd",
        "coordination.push", "coordination.send", "coordination.resolve",
        "coordination.large.push", "coordination.large.send", "coordination.large.resolve",
        "coordination.deep.push", "coordination.deep.send", "coordination.deep.resolve",
        "cli.busctl_push", "cli.navctl_push", "cli.cold_start",
        "size.navd", "install.size", "install.total",
        "growth.screens_1", "growth.screens_100", "growth.screens_10000",
        "memory.screens_10000.private", "memory.screens_10000.file", "memory.after_history", "growth.after_history",
        "devtools.push_pop", "devtools.get_tree_at", "devtools.state_file", "devtools.rss",
    ] + appKeys

    /// The apps figures: an app's object against the default one, 50 apps, Reload and its stall, and an app
    /// with `access:` against one without.
    static let appKeys = [
        "apps.latency.default", "apps.latency.app", "apps.throughput.default", "apps.throughput.app",
        "apps.latency.50_apps", "apps.memory.per_app", "apps.reload.time", "apps.reload.calls_alone", "apps.reload.stall",
        "apps.reload.changed", "apps.reload.changed_stall",
        "access.latency", "access.throughput", "access.memory.callers",
    ]

    /// The lean figures with a target of the issue's table: navd stripped, bin/ as
    /// installed (navd and two links), idle RSS private + file-backed.
    static let leanTargetKeys = ["size.navd", "install.size", "memory.idle.rss"]

    /// The directory holding navd-bench and the binaries it runs, or nil (the reason printed).
    static let binaryDirectory: String? = {
        let needed = ["navd-bench", "navd", "navctl", "navwatch", "navd-floor", "navd-load"]
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let packageRoot = Fixture.repository
        var candidates = [URL(fileURLWithPath: executable).deletingLastPathComponent().path]
        if let given = ProcessInfo.processInfo.environment["NAVD_BENCH_BIN_DIR"] { candidates.insert(given, at: 0) }
        candidates += [packageRoot + "/.build/debug", packageRoot + "/.build/release"]
        for directory in candidates
        where needed.allSatisfy({ FileManager.default.isExecutableFile(atPath: directory + "/" + $0) }) {
            return directory
        }
        print("BenchSmokeTests skipped: \(needed.joined(separator: ", ")) not all built in any of \(candidates.joined(separator: ", ")); build them with `swift build`")
        return nil
    }()

    @Test(
        "navd-bench --quick exits 0 and writes every figure",
        .enabled(if: binaryDirectory != nil, "needs navd-bench, navd, navctl, navwatch, navd-floor and navd-load built side by side"),
        .timeLimit(.minutes(2)))
    func quickRunWritesEveryFigure() throws {
        let directory = try #require(Self.binaryDirectory)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-smoke-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let jsonPath = scratch + "/bench.json"

        let started = Date()
        let result = try ChildProcess.run(
            directory + "/navd-bench", ["--quick", "--json", jsonPath, "--bin-dir", directory], timeout: 90)
        let status = result.status
        let output = result.stdout + result.stderr
        print("navd-bench --quick took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(status == 0, "navd-bench exited \(status):\n\(output)")
        #expect(output.contains("latency.navd"), "the table names the figures:\n\(output)")

        let data = try Data(contentsOf: URL(fileURLWithPath: jsonPath))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let figures = try #require(report["figures"] as? [[String: Any]])
        var byKey: [String: [String: Any]] = [:]
        for figure in figures {
            if let key = figure["key"] as? String { byKey[key] = figure }
        }
        for key in Self.expectedKeys {
            guard let figure = byKey[key] else {
                Issue.record("figure \(key) missing from the JSON")
                continue
            }
            for field in ["p50", "p99", "mean"] {
                let value = (figure[field] as? NSNumber)?.doubleValue ?? -1
                // Memory per app and over callers are differences of RSS readings: finite, maybe not positive; CPU
                // time per change is counted in clock ticks (10 ms), more than a quick run's changes may take.
                let differences = ["apps.memory.per_app", "access.memory.callers", "cpu.per_change"]
                #expect((value > 0 || differences.contains(key)) && value.isFinite, "\(key).\(field) is \(value)")
            }
            if key.hasPrefix("floor.durable.") {
                // A commit that failed would be answered at once with an error, and look fast.
                #expect((figure["errors"] as? NSNumber)?.intValue == 0, "\(key) has error replies: \(figure)")
            }
            if Self.appKeys.contains(key) {
                // A call to a wrong object path would be answered at once with an error.
                #expect((figure["errors"] as? NSNumber)?.intValue == 0, "\(key) has error replies: \(figure)")
                #expect(((figure["samples"] as? NSNumber)?.intValue ?? 0) > 0, "\(key) has no samples")
                let baselines = ["apps.latency.default", "apps.throughput.default", "apps.reload.calls_alone", "apps.reload.changed"]
                #expect(baselines.contains(key) || figure["target"] is String, "\(key) has no target")
                #expect(baselines.contains(key) || figure["met"] is Bool, "\(key) says not whether its target was met")
            }
            if Self.leanTargetKeys.contains(key) {
                #expect((figure["target"] as? String)?.hasSuffix(" MiB") == true, "\(key) has no target in MiB: \(figure)")
                #expect(figure["met"] is Bool, "\(key) says not whether its target was met")
            }
            if let ratio = figure["ratio"] {
                let value = (ratio as? NSNumber)?.doubleValue ?? -1
                #expect(value > 0 && value.isFinite, "\(key).ratio is \(value)")
            }
            if let ops = figure["opsPerSecond"] {
                #expect(((ops as? NSNumber)?.doubleValue ?? -1) > 0, "\(key).opsPerSecond is not positive")
            }
        }
        let machine = try #require(report["machine"] as? [String: Any])
        #expect(((machine["processors"] as? NSNumber)?.intValue ?? 0) > 0)
    }
}
