import Foundation

/// A dbus-daemon of a test's (or the benchmark's) own, on a configuration with no service
/// directories; stopped by its process id in `stop()` and in deinit, and remembered in
/// `ProcessRegistry` until then.
///
/// ```swift
/// let bus = try PrivateBus()
/// let connection = try Connection(.address(bus.address))
/// ```
public final class PrivateBus: @unchecked Sendable {
    /// The bus address to connect to (`unix:abstract=…` or `unix:path=…`).
    public let address: String
    /// The daemon's process id.
    public let pid: pid_t
    /// The configuration file the daemon was started with (removed on `stop()`).
    public let configurationPath: String

    private let lock = NSLock()
    private var stopped = false

    /// Starts `dbus-daemon --fork` with `PrivateBusConfiguration` plus `extraConfiguration`
    /// (XML inserted into `<busconfig>`, for example a policy a later test needs), and waits up
    /// to `timeout` seconds for it to print its address and pid.
    public convenience init(extraConfiguration: String = "", timeout: Double = 10) throws {
        try self.init(extraConfiguration: extraConfiguration, timeout: timeout, launcher: [])
    }

    /// `init(extraConfiguration:timeout:)` with the daemon started as `LAUNCHER… dbus-daemon ARGUMENTS…`
    /// (for example inside `unshare -m` with a test user database bind-mounted: `sh -c '… && exec "$0" "$@"'`).
    public init(extraConfiguration: String = "", timeout: Double = 10, launcher: [String]) throws {
        let directory = TemporaryDirectory.make("navd-test-bus")
        configurationPath = directory + "/bus.conf"
        try PrivateBusConfiguration.text(extraXML: extraConfiguration).write(
            toFile: configurationPath, atomically: true, encoding: .utf8)

        // With --fork the launcher prints the address and the daemon's pid, then exits while
        // the daemon keeps running. It is spawned directly (not with Foundation.Process, whose
        // exit detection waits for descriptors the forked daemon inherits) and with a clean
        // signal mask, so that the daemon obeys SIGTERM.
        let outputPath = directory + "/launcher.out"
        let daemon = [try Self.daemonExecutable(), "--config-file=\(configurationPath)", "--fork", "--print-address=1", "--print-pid=1"]
        let command = launcher + daemon
        let launcherStatus = try Self.runLauncher(command[0], Array(command.dropFirst()), output: outputPath, timeout: timeout)
        let printed = FileText.read(outputPath) ?? ""
        guard launcherStatus == 0 else {
            throw HarnessError("dbus-daemon did not start (status \(launcherStatus)): \(printed)")
        }
        let lines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count >= 2, let daemonPid = pid_t(lines[1]), lines[0].hasPrefix("unix:") else {
            throw HarnessError("dbus-daemon printed no address and pid: '\(printed)'")
        }
        address = lines[0]
        pid = daemonPid
        ProcessRegistry.remember(daemonPid)
    }

    deinit {
        stop()
    }

    /// Whether the daemon is still running.
    public var isRunning: Bool { !ProcessExit.hasExited(pid) }

    /// Stops the daemon: SIGTERM by pid, waits for it to exit, then SIGKILL. Safe to call twice.
    public func stop() {
        let alreadyStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if alreadyStopped { return }
        ProcessExit.terminate(pid)
        ProcessRegistry.forget(pid)
        TemporaryDirectory.remove((configurationPath as NSString).deletingLastPathComponent)
    }

    /// Environment variables that point a child process at this bus (as its session bus and,
    /// for tests that pass `--system`, its system bus).
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "DBUS_SYSTEM_BUS_ADDRESS": address]
    }

    /// Runs the launcher with stdout and stderr in `output`; returns its exit status.
    private static func runLauncher(_ executable: String, _ arguments: [String], output: String, timeout: Double)
        throws -> Int32
    {
        let pid = try Spawn.start(executable, arguments, output: output, errors: nil)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = Spawn.reap(pid) { return status }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                Spawn.waitForExit(pid)
                throw HarnessError("dbus-daemon did not print its address within \(timeout) s")
            }
            usleep(2_000)
        }
    }

    /// The dbus-daemon binary, or an error saying it is missing (tests skip on it).
    public static func daemonExecutable() throws -> String {
        for candidate in ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw HarnessError("dbus-daemon is not installed (apt install dbus-daemon)")
    }

    /// Whether a private bus can be started here; tests print the reason and skip when not.
    public static var isAvailable: Bool { (try? daemonExecutable()) != nil }
}
