import Foundation
import Glibc

/// A service process the benchmark started (navd or navd-floor): stderr goes to a log file,
/// and it is stopped by its pid.
final class ChildService {
    /// What the table calls it.
    let label: String
    /// The process id.
    let pid: pid_t
    /// Where its stderr goes.
    let logPath: String
    private var exited = false

    /// Starts `executable arguments…`, logging its stderr to `logPath`.
    init(label: String, executable: String, arguments: [String], logPath: String) throws {
        self.label = label
        self.logPath = logPath
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw BenchError("cannot write \(logPath)") }
        defer { Glibc.close(log) }
        pid = try spawn(executable, arguments, standardError: log)
        ProcessRegistry.remember(pid)
    }

    /// Whether it is still running.
    var isRunning: Bool {
        if !exited && hasExited(pid) { exited = true }
        return !exited
    }

    /// The resident set size from /proc/PID/status (VmRSS), in MiB.
    func residentMebibytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kibibytes = Double(fields[1]) { return kibibytes / 1024 }
        }
        return nil
    }

    /// The last lines of its log, for error messages.
    func logTail(lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// SIGTERM, up to `seconds` to exit, then SIGKILL.
    func stop(seconds: Double = 10) {
        defer { ProcessRegistry.forget(pid) }
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while isRunning && MonotonicClock.nanoseconds() < deadline { sleepMilliseconds(2) }
        if isRunning {
            kill(pid, SIGKILL)
            waitForExit(pid)
            exited = true
        }
    }
}
