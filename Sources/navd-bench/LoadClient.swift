import BusHarness
import DBus
import Foundation
import NavigatorProtocol

/// One service `navd-load` drives: the bus it is on, its name, and which calls it gets.
struct LoadTarget {
    /// The bus address.
    let address: String
    let target: CallTarget
    let kind: CallKind
    /// The object path of navd's calls: the default navigator's, or an app's.
    var path: String = Navigator.objectPath.rawValue
}

/// How `navd-load` drives its targets (see Sources/navd-load/main.c).
enum LoadMode: String {
    /// One call at a time, the targets interleaved call by call; a sample is send to reply.
    case serial
    /// Each target in turn keeps a window of calls outstanding; a sample is send to reply.
    case inflight
    /// One call at a time; a sample is send to the last watcher process reading its StackChanged.
    case fanout
}

/// The C load client, `navd-load`: every latency, throughput and fan-out figure goes through
/// it, so the client costs the same small constant for navd and the services it is compared with.
struct LoadClient {
    /// The `navd-load` executable.
    let executable: String
    /// Where its output and error files go (one run at a time).
    let workDirectory: String

    /// Runs `mode` over `targets` (`warmUp` untimed then `calls` timed calls each) and returns
    /// one `Samples` per target, in order, holding every sample when `keepSamples`, else only
    /// the count, elapsed time and errors. With `wholePairs` (serial) each target makes both
    /// calls of a pair in its turn, for targets that share one navd's tree. With
    /// `durationMilliseconds` (serial) the timed calls go on that long instead. Throws with
    /// navd-load's own message when it fails.
    func run(
        _ mode: LoadMode, _ targets: [LoadTarget], calls: Int, warmUp: Int, seed: Int,
        watchers: Int = 1, window: Int = 32, chunk: Int = 256, keepSamples: Bool = true, wholePairs: Bool = false,
        durationMilliseconds: Int? = nil
    ) throws -> [Samples] {
        let arguments = Self.arguments(
            mode, targets, calls: calls, warmUp: warmUp, seed: seed, watchers: watchers, window: window, chunk: chunk,
            keepSamples: keepSamples, wholePairs: wholePairs, durationMilliseconds: durationMilliseconds)
        let output = try runCapturing(arguments)
        return try Self.parse(output, targets: targets.count)
    }

    /// navd-load running beside the benchmark (see `start`); `finish` waits for it.
    struct Running {
        let pid: pid_t
        let arguments: [String]
        let outputPath: String
        let errorPath: String
        let targets: Int
    }

    /// Starts navd-load serial over `targets` for `durationMilliseconds` of timed calls (after
    /// `warmUp` untimed ones) without waiting for it, its output in files named after `tag`, so
    /// that another navd-load can run meanwhile.
    func start(
        _ targets: [LoadTarget], warmUp: Int, seed: Int, durationMilliseconds: Int, tag: String
    ) throws -> Running {
        let arguments = Self.arguments(
            .serial, targets, calls: 2, warmUp: warmUp, seed: seed, watchers: 1, window: 32, chunk: 256,
            keepSamples: true, wholePairs: false, durationMilliseconds: durationMilliseconds)
        let outputPath = workDirectory + "/\(tag).out", errorPath = workDirectory + "/\(tag).err"
        let pid = try Spawn.start(executable, arguments, output: outputPath, errors: errorPath)
        ProcessRegistry.remember(pid)
        return Running(pid: pid, arguments: arguments, outputPath: outputPath, errorPath: errorPath, targets: targets.count)
    }

    /// Waits for a navd-load from `start` to end; its samples per target, as `run` gives them.
    func finish(_ running: Running) throws -> [Samples] {
        let status = Spawn.waitForExit(running.pid)
        ProcessRegistry.forget(running.pid)
        guard status == 0 else {
            let errors = (FileText.read(running.errorPath) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw BenchError("navd-load \(running.arguments.first ?? "") exited \(status): \(errors)")
        }
        return try Self.parse(FileText.read(running.outputPath) ?? "", targets: running.targets)
    }

    /// navd-load's command line for `mode` over `targets`.
    static func arguments(
        _ mode: LoadMode, _ targets: [LoadTarget], calls: Int, warmUp: Int, seed: Int,
        watchers: Int, window: Int, chunk: Int, keepSamples: Bool, wholePairs: Bool, durationMilliseconds: Int?
    ) -> [String] {
        var arguments = [
            mode.rawValue, "--calls", "\(calls)", "--warmup", "\(warmUp)", "--seed", "\(seed)",
            "--window", "\(window)", "--chunk", "\(chunk)", "--watchers", "\(watchers)",
            "--timeout-ms", "\(callTimeoutMilliseconds)",
        ]
        if keepSamples { arguments.append("--samples") }
        if wholePairs { arguments.append("--whole-pairs") }
        if let durationMilliseconds { arguments += ["--duration-ms", "\(durationMilliseconds)"] }
        for target in targets {
            arguments += ["--address", target.address]
            let navigator = ["--path", target.path, "--interface", Navigator.interfaceName]
            switch target.kind {
            case .ping: arguments += ["--interface", StandardInterfaces.peer.name, "--method", "Ping"]
            case .pushPop: arguments += navigator + ["--push-pop", "orange"]
            case .sendPop(let event): arguments += navigator + ["--send-pop", event]
            case .resolve(let event): arguments += navigator + ["--resolve", event]
            case .reload: arguments += navigator + ["--method", NavigatorMethod.reload.name]
            }
            arguments += ["--dest", target.target.busName]
        }
        return arguments
    }

    /// Runs navd-load with `arguments`; its stdout, or an error holding its stderr.
    private func runCapturing(_ arguments: [String]) throws -> String {
        let result = try captureRun(executable, arguments, directory: workDirectory)
        guard result.status == 0 else {
            throw BenchError("navd-load \(arguments.first ?? "") exited \(result.status): \(result.errors.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return result.output
    }

    /// Reads navd-load's `target` and `samples` lines into one `Samples` per target.
    static func parse(_ output: String, targets: Int) throws -> [Samples] {
        var results = Array(repeating: Samples(), count: targets)
        var seen = Set<Int>()
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let index = Int(fields[1]), results.indices.contains(index) else { continue }
            if fields[0] == "target" {
                var values: [Substring: UInt64] = [:]
                var position = 3
                while position + 1 < fields.count {
                    values[fields[position]] = UInt64(fields[position + 1])
                    position += 2
                }
                results[index].elapsedNanoseconds = values["elapsed_ns"] ?? 0
                results[index].errors = Int(values["errors"] ?? 0)
                seen.insert(index)
            } else if fields[0] == "samples" {
                results[index].nanoseconds = fields.dropFirst(2).compactMap { UInt64($0) }
            }
        }
        guard seen.count == targets else { throw BenchError("navd-load reported \(seen.count) of \(targets) targets:\n\(output)") }
        return results
    }
}

/// How long one call may take before the run gives up on the service: long, because a stall
/// (a snapshot of a large state, say) is a finding to report, not a reason to stop.
let callTimeoutMilliseconds = 120_000

extension Binaries {
    /// The C load client, built beside navd-floor.
    var load: String { directory + "/navd-load" }
    /// navwatch, for the installed size.
    var navwatch: String { directory + "/navwatch" }
}

/// Runs `executable arguments…` to its end with stdout and stderr in files of `directory`
/// (one run at a time), stoppable by the benchmark's signal handler; its exit status and output.
func captureRun(_ executable: String, _ arguments: [String], directory: String) throws -> (status: Int32, output: String, errors: String) {
    let outputPath = directory + "/run.out", errorPath = directory + "/run.err"
    let pid = try Spawn.start(executable, arguments, output: outputPath, errors: errorPath)
    ProcessRegistry.remember(pid)
    let status = Spawn.waitForExit(pid)
    ProcessRegistry.forget(pid)
    return (status, FileText.read(outputPath) ?? "", FileText.read(errorPath) ?? "")
}
