import DBus
import Foundation
import TestSupport

/// One navd under test, on a private bus, with its state in a directory of its own (or a
/// directory the launcher provides); restarted as often as a test likes, stopped by pid.
final class NavdProcess: @unchecked Sendable {
    /// The bus navd serves on.
    let bus: PrivateBus
    /// The state directory (`--state-dir`), or nil for `--ephemeral`.
    let stateDirectory: String?
    /// Extra arguments (limits, `--verbose`).
    let extraArguments: [String]
    /// When set, navd is started through this shell command (the text `NAVD` stands for navd's
    /// own command line, quoted), as `sh -c`: used to start it inside `unshare -m`.
    let launcher: ((String) -> [String])?

    /// The running process (replaced by `start()`).
    private(set) var child: ChildProcess?
    /// How many times navd was started.
    private(set) var starts = 0
    /// Every stderr text of the processes already replaced, for failure messages.
    private(set) var earlierStderr = ""

    /// Prepares a navd; nothing runs until `start()`.
    init(bus: PrivateBus, stateDirectory: String?, extraArguments: [String] = [], launcher: ((String) -> [String])? = nil) {
        self.bus = bus
        self.stateDirectory = stateDirectory
        self.extraArguments = extraArguments
        self.launcher = launcher
    }

    deinit { stop() }

    /// navd's path in the build directory.
    static var executable: String { Products.url("navd") }

    /// Whether navd has been built (tests skip with a reason when not).
    static var isBuilt: Bool { Products.exists("navd") }

    /// The pid of the running navd (0 when none).
    var pid: pid_t { child?.pid ?? 0 }

    /// Whether the current process is still running.
    var isRunning: Bool { child.map { !ProcessExit.hasExited($0.pid) } ?? false }

    /// The current process' stderr.
    var stderr: String { child?.stderrText ?? "" }

    /// navd's command line.
    var arguments: [String] {
        var arguments = ["--address", bus.address]
        if let stateDirectory { arguments += ["--state-dir", stateDirectory] } else { arguments.append("--ephemeral") }
        return arguments + extraArguments
    }

    /// Starts navd and waits until it answers `GetState`; returns the seconds that took.
    @discardableResult
    func start(timeout: Double = 20) throws -> Double {
        let began = monotonicSeconds()
        try launch()
        try waitUntilReady(timeout: timeout)
        return monotonicSeconds() - began
    }

    /// Starts navd without waiting for it (a test may kill it in the middle of its start-up).
    func launch() throws {
        if let child { earlierStderr += child.stderrText }
        let process: ChildProcess
        if let launcher {
            let commandLine = ([Self.executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
            let argv = launcher(commandLine)
            process = try ChildProcess(launching: argv[0], arguments: Array(argv.dropFirst()))
        } else {
            process = try ChildProcess(launching: Self.executable, arguments: arguments)
        }
        child = process
        starts += 1
    }

    /// Polls `GetState` every few milliseconds until it answers.
    func waitUntilReady(timeout: Double) throws {
        let probe = try Connection(.address(bus.address))
        defer { probe.close() }
        let deadline = monotonicSeconds() + timeout
        while true {
            if (try? probe.navd("GetState", timeoutMilliseconds: 1_000)) != nil { return }
            if let child, ProcessExit.hasExited(child.pid) {
                throw TestSupportError("navd exited during start-up (status \(child.exitStatus.map(String.init) ?? "?")): \(child.stderrText)")
            }
            if monotonicSeconds() > deadline {
                throw TestSupportError("navd did not answer GetState within \(timeout) s: \(stderr)")
            }
            usleep(3_000)
        }
    }

    /// SIGKILL by pid, and waits until the process is gone.
    func kill9() {
        guard let child else { return }
        child.signal(SIGKILL)
        _ = child.waitForExit(timeout: 10)
        ProcessExit.waitUntilExited(child.pid, timeout: 5)
    }

    /// SIGTERM by pid; returns the exit status (nil if it had to be killed).
    @discardableResult
    func terminate(timeout: Double = 10) -> Int32? {
        guard let child, !ProcessExit.hasExited(child.pid) else { return child?.exitStatus }
        child.signal(SIGTERM)
        if let status = child.waitForExit(timeout: timeout) { return status }
        child.signal(SIGKILL)
        _ = child.waitForExit(timeout: 5)
        return nil
    }

    /// Stops navd if it runs (SIGTERM, then SIGKILL).
    func stop() {
        if isRunning { terminate() }
    }

    /// The state database's size in bytes (main file plus WAL), 0 when there is none.
    var databaseBytes: Int {
        guard let stateDirectory else { return 0 }
        return ["navd.sqlite3", "navd.sqlite3-wal", "navd.sqlite3-shm"].reduce(0) { sum, name in
            let path = (stateDirectory as NSString).appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return sum + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Figures read from /proc for one process.
enum ProcessStatistics {
    /// Resident memory in KiB (`VmRSS`), nil when the process is gone.
    static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// How many file descriptors the process holds open.
    static func openDescriptors(_ pid: pid_t) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }
}
