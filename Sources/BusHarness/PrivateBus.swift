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
        let started = try BusDaemon.start(
            in: directory, extraConfiguration: extraConfiguration, timeout: timeout, launcher: launcher)
        address = started.address
        pid = started.pid
        ProcessRegistry.remember(pid)
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

    /// The dbus-daemon binary, or an error saying it is missing (tests skip on it).
    public static func daemonExecutable() throws -> String { try BusDaemon.executable() }

    /// Whether a private bus can be started here; tests print the reason and skip when not.
    public static var isAvailable: Bool { (try? daemonExecutable()) != nil }
}
