import Foundation
import Glibc

/// A service process the benchmark started (navd or navd-floor): stderr goes to a log file,
/// and it is stopped by its pid.
final class ChildService {
    /// What the table calls it.
    let label: String
    /// The process.
    let process: Process
    /// Where its stderr goes.
    let logPath: String

    /// Starts `executable arguments…`, logging to `logPath`.
    init(label: String, executable: String, arguments: [String], logPath: String) throws {
        self.label = label
        self.logPath = logPath
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The process id.
    var pid: pid_t { process.processIdentifier }

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
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { sleepMilliseconds(5) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}
