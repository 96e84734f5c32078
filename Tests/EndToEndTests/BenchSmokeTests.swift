import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The benchmark runs end to end with tiny counts: it exits 0 and its JSON names every
/// figure with positive numbers. No timing is asserted, only that each figure was measured.
@Suite("navd-bench smoke run", .serialized)
struct BenchSmokeTests {
    /// Every figure `navd-bench --quick` reports (growth, memory and CLI included).
    static let expectedKeys = [
        "memory.idle",
        "floor.ping.serial", "floor.ping.inflight32", "floor.service.serial", "floor.service.inflight32",
        "latency.navd", "latency.navd.vs_ping", "throughput.navd", "throughput.navd.vs_ping",
        "durability.floor.serial", "durability.ephemeral.latency",
        "durability.floor.inflight32", "durability.ephemeral.throughput",
        "fanout.1.floor", "fanout.1.navd", "fanout.10.floor", "fanout.10.navd", "fanout.50.floor", "fanout.50.navd",
        "cli.busctl_push", "cli.navctl_push", "cli.cold_start",
        "growth.screens_1", "growth.screens_100", "growth.screens_10000",
        "memory.screens_10000", "memory.after_history", "growth.after_history",
    ]

    /// The directory holding navd-bench, navd, navctl and navd-floor, or nil (the reason printed).
    static let binaryDirectory: String? = {
        let needed = ["navd-bench", "navd", "navctl", "navd-floor"]
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
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
        .enabled(if: binaryDirectory != nil, "needs navd-bench, navd, navctl and navd-floor built side by side"),
        .timeLimit(.minutes(2)))
    func quickRunWritesEveryFigure() throws {
        let directory = try #require(Self.binaryDirectory)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-smoke-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let jsonPath = scratch + "/bench.json"
        let outputPath = scratch + "/output.txt"

        let started = Date()
        let status = try runWithDeadline(
            directory + "/navd-bench", ["--quick", "--json", jsonPath, "--bin-dir", directory],
            outputPath: outputPath, seconds: 90)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
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
                #expect(value > 0 && value.isFinite, "\(key).\(field) is \(value)")
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

/// Runs a program with stdout and stderr into `outputPath`; kills it (by pid) after `seconds`.
/// Returns its exit status, or -1 when it was killed.
private func runWithDeadline(_ executable: String, _ arguments: [String], outputPath: String, seconds: Double) throws -> Int32 {
    let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard output >= 0 else { throw SmokeError("cannot write \(outputPath)") }
    defer { close(output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    // A clean signal state: a parent that blocks or ignores SIGTERM (test runners do) must not
    // pass that on, or the child could not be stopped by its pid.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard result == 0 else { throw SmokeError("cannot run \(executable): error \(result)") }
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline {
            kill(pid, SIGTERM)
            usleep(500_000)
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            Issue.record("navd-bench did not finish within \(Int(seconds)) s")
            return -1
        }
        usleep(20_000)
    }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

private struct SmokeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
