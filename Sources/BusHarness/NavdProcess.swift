import DBus
import Foundation

/// A real `navd` process on a private bus: started from a built binary, ready when a
/// `GetState` call answers, restarted as often as a test likes (same bus, state directory and
/// arguments), stopped by its process id (SIGTERM, or SIGKILL as a crash).
///
/// navd runs in a temporary home of its own (`HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` point
/// into it) and always gets `--apps-dir` (the folder given, else an empty one in that home), so a
/// test never reads the developer's own `routes.yaml` or apps.
///
/// ```swift
/// let navd = try NavdProcess.started(bus: bus, stateDirectory: NavdProcess.temporaryStateDirectory())
/// navd.kill9()
/// try navd.start()
/// ```
public final class NavdProcess: @unchecked Sendable {
    /// The bus navd serves.
    public let bus: PrivateBus
    /// The navd binary.
    public let executable: String
    /// The state directory (`--state-dir`), or nil for `--ephemeral`.
    public let stateDirectory: String?
    /// Extra command-line arguments (limits, `--durability`, `--verbose`).
    public let extraArguments: [String]
    /// When set, navd is started through the command this returns for navd's own command line
    /// (quoted for `sh -c`), for example inside `unshare -m` with a small tmpfs mounted.
    public let launcher: ((String) -> [String])?
    /// navd's temporary home (removed in deinit): its `.config/navd` is `configDirectory`.
    public let home: String
    /// The apps folder navd is given (`--apps-dir`): the one passed to `init` (or in
    /// `extraArguments`), else `configDirectory/apps`, created empty.
    public let appsDirectory: String

    /// The running process (replaced by each start), nil before the first.
    public private(set) var child: ChildProcess?
    /// How many times navd was started.
    public private(set) var starts = 0
    /// The stderr of every process already replaced, for failure messages.
    public private(set) var earlierStderr = ""

    /// Prepares a navd on `bus`, its apps folder `appsDirectory` (nil: an empty folder in its
    /// temporary home); nothing runs until `start()`.
    public init(
        bus: PrivateBus, executable: String = NavdProcess.executable, stateDirectory: String? = nil,
        appsDirectory: String? = nil, extraArguments: [String] = [], launcher: ((String) -> [String])? = nil
    ) {
        self.bus = bus
        self.executable = executable
        self.stateDirectory = stateDirectory
        self.extraArguments = extraArguments
        self.launcher = launcher
        home = TemporaryDirectory.make("navd-test-home")
        let given = appsDirectory ?? extraArguments.firstIndex(of: "--apps-dir").flatMap {
            $0 + 1 < extraArguments.count ? extraArguments[$0 + 1] : nil
        }
        if let given {
            self.appsDirectory = given
        } else {
            self.appsDirectory = home + "/.config/navd/apps"
            try? FileManager.default.createDirectory(atPath: self.appsDirectory, withIntermediateDirectories: true)
        }
    }

    /// Starts a navd on `bus` and waits until it answers (see `init` and `start`).
    public static func started(
        bus: PrivateBus, stateDirectory: String? = nil, appsDirectory: String? = nil, extraArguments: [String] = [],
        timeout: Double = 20
    ) throws -> NavdProcess {
        let navd = NavdProcess(
            bus: bus, stateDirectory: stateDirectory, appsDirectory: appsDirectory, extraArguments: extraArguments)
        try navd.start(timeout: timeout)
        return navd
    }

    deinit {
        stop()
        TemporaryDirectory.remove(home)
    }

    /// `$XDG_CONFIG_HOME/navd` of navd's temporary home, where navd looks for `routes.yaml` when
    /// it is given no `--routes`.
    public var configDirectory: String { home + "/.config/navd" }

    /// The environment that points a process at `bus` and keeps it in the temporary home `home`
    /// (`HOME`, `XDG_CONFIG_HOME`, `XDG_STATE_HOME`), for a test that runs navd by itself.
    public static func isolatedEnvironment(bus: PrivateBus, home: String) -> [String: String] {
        bus.environment.merging([
            "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
        ]) { $1 }
    }

    /// The environment navd is started with: `bus` and the temporary home.
    public var environment: [String: String] { Self.isolatedEnvironment(bus: bus, home: home) }

    /// The package's built navd.
    public static var executable: String { Products.url("navd") }

    /// Whether navd has been built (tests skip with a reason when not).
    public static var isBuilt: Bool { Products.exists("navd") }

    /// A new temporary directory for a state database, left for the caller to remove.
    public static func temporaryStateDirectory() -> String {
        TemporaryDirectory.make("navd-test-state")
    }

    /// The pid of the current navd (0 before the first start).
    public var pid: pid_t { child?.pid ?? 0 }

    /// Whether the current process is still running.
    public var isRunning: Bool { child.map { !ProcessExit.hasExited($0.pid) } ?? false }

    /// The current process' stderr (navd's log).
    public var stderr: String { child?.stderrText ?? "" }

    /// navd's command line, without the executable.
    public var arguments: [String] {
        var arguments = ["--address", bus.address]
        if let stateDirectory { arguments += ["--state-dir", stateDirectory] } else { arguments.append("--ephemeral") }
        if !extraArguments.contains("--apps-dir") { arguments += ["--apps-dir", appsDirectory] }
        return arguments + extraArguments
    }

    /// Starts navd (again, after `stop()` or `kill9()`) and waits until it answers `GetState`;
    /// returns the seconds that took.
    @discardableResult
    public func start(timeout: Double = 20) throws -> Double {
        let began = ContinuousClock.now
        try launch()
        try waitUntilReady(timeout: timeout)
        let elapsed = began.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Starts navd without waiting for it (a test may kill it in the middle of its start-up).
    public func launch() throws {
        if let child { earlierStderr += child.stderrText }
        if let launcher {
            let commandLine = ([executable] + arguments).map(Spawn.shellQuoted).joined(separator: " ")
            let argv = launcher(commandLine)
            child = try ChildProcess(launching: argv[0], arguments: Array(argv.dropFirst()), environment: environment)
        } else {
            child = try ChildProcess(launching: executable, arguments: arguments, environment: environment)
        }
        starts += 1
    }

    /// Polls `GetState` every few milliseconds until navd answers; throws with its log when
    /// it exits first, or when it has not answered after `timeout` seconds.
    ///
    /// On a machine busy with other work (a sanitizer build at a low priority beside fuzzers) a
    /// start that takes 8 s of CPU can take minutes of wall clock. So once `timeout` seconds have
    /// passed, navd is given more time as long as it has had less than `timeout` seconds of CPU
    /// since it was launched: it is starved, not hung. A navd that waits without using the CPU
    /// (a deadlock) is given up on at `stalledFactor` × `timeout`.
    public func waitUntilReady(timeout: Double = 20) throws {
        let probe = try Connection(.address(bus.address))
        defer { probe.close() }
        let began = Date()
        let cpuAtLaunch = child.flatMap { ProcessStatistics.cpuSeconds($0.pid) } ?? 0
        while true {
            if (try? probe.navigator("GetState", timeoutMilliseconds: 1_000)) != nil { return }
            if let child, ProcessExit.hasExited(child.pid) {
                let status = child.exitStatus.map(String.init) ?? "?"
                throw HarnessError("navd exited during start-up (status \(status)): \(child.stderrText)")
            }
            let waited = Date().timeIntervalSince(began)
            if waited >= timeout {
                let cpu = child.flatMap { ProcessStatistics.cpuSeconds($0.pid) }.map { $0 - cpuAtLaunch } ?? timeout
                if cpu >= timeout || waited >= timeout * Self.stalledFactor {
                    throw HarnessError(
                        "navd did not answer GetState within \(timeout) s (waited \(String(format: "%.1f", waited)) s, navd used \(String(format: "%.1f", cpu)) s of CPU): \(stderr)"
                    )
                }
            }
            usleep(3_000)
        }
    }

    /// How many times its timeout `waitUntilReady` waits for a navd that is starved of CPU.
    public static let stalledFactor = 5.0

    /// SIGTERM by pid, then waits up to `timeout` seconds: the exit status, or nil if it had
    /// to be killed. The exit status at once if navd had already exited.
    @discardableResult
    public func stop(timeout: Double = 10) -> Int32? {
        child?.stop(timeout: timeout)
    }

    /// SIGKILL by pid, as a crash, and waits until the process is gone.
    public func kill9() {
        guard let child else { return }
        child.stop(with: SIGKILL)
        ProcessExit.waitUntilExited(child.pid, timeout: 5)
    }

    /// The state database's size in bytes (main file plus WAL and shared memory), 0 when
    /// there is none.
    public var databaseBytes: Int {
        guard let stateDirectory else { return 0 }
        return ["navd.sqlite3", "navd.sqlite3-wal", "navd.sqlite3-shm"].reduce(0) { sum, name in
            let path = (stateDirectory as NSString).appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return sum + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
