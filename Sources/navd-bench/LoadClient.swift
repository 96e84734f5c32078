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
    /// calls of a pair in its turn, for targets that share one navd's tree. Throws with
    /// navd-load's own message when it fails.
    func run(
        _ mode: LoadMode, _ targets: [LoadTarget], calls: Int, warmUp: Int, seed: Int,
        watchers: Int = 1, window: Int = 32, chunk: Int = 256, keepSamples: Bool = true, wholePairs: Bool = false
    ) throws -> [Samples] {
        var arguments = [
            mode.rawValue, "--calls", "\(calls)", "--warmup", "\(warmUp)", "--seed", "\(seed)",
            "--window", "\(window)", "--chunk", "\(chunk)", "--watchers", "\(watchers)",
            "--timeout-ms", "\(callTimeoutMilliseconds)",
        ]
        if keepSamples { arguments.append("--samples") }
        if wholePairs { arguments.append("--whole-pairs") }
        for target in targets {
            arguments += ["--address", target.address]
            switch target.kind {
            case .ping: arguments += ["--interface", StandardInterfaces.peer.name, "--method", "Ping"]
            case .pushPop:
                arguments += [
                    "--path", Navigator.objectPath.rawValue, "--interface", Navigator.interfaceName, "--push-pop", "orange",
                ]
            case .sendPop(let event):
                arguments += [
                    "--path", Navigator.objectPath.rawValue, "--interface", Navigator.interfaceName, "--send-pop", event,
                ]
            case .resolve(let event):
                arguments += [
                    "--path", Navigator.objectPath.rawValue, "--interface", Navigator.interfaceName, "--resolve", event,
                ]
            }
            arguments += ["--dest", target.target.busName]
        }
        let output = try runCapturing(arguments)
        return try Self.parse(output, targets: targets.count)
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
