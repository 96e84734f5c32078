import DBus
import Foundation

/// A real `navd` process on a test's private bus: started from the built binary, ready when a
/// `GetState` call answers, stopped by its process id (SIGTERM, or SIGKILL for crash tests).
public final class NavdProcess: @unchecked Sendable {
    /// The bus navd serves.
    public let bus: PrivateBus
    /// The state directory (`nil` runs navd `--ephemeral`).
    public let stateDirectory: String?
    /// Extra command-line arguments.
    public let extraArguments: [String]
    /// The running process (replaced by `restart()`).
    public private(set) var process: ChildProcess

    /// Starts navd on `bus` and waits until it answers. `stateDirectory: nil` means `--ephemeral`.
    public init(bus: PrivateBus, stateDirectory: String? = nil, arguments: [String] = [], timeout: Double = 15) throws {
        self.bus = bus
        self.stateDirectory = stateDirectory
        self.extraArguments = arguments
        process = try Self.launch(bus: bus, stateDirectory: stateDirectory, arguments: arguments)
        try waitUntilReady(timeout: timeout)
    }

    deinit {
        if process.isRunning { ProcessExit.terminate(process.pid, grace: 5) }
    }

    /// The process id of the current navd.
    public var pid: pid_t { process.pid }

    /// Everything navd wrote to stderr so far.
    public var log: String { process.stderrText }

    /// A new temporary directory for a state database, removed by the caller or left in /tmp.
    public static func temporaryStateDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "navd-test-state-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Polls `GetState` until navd answers or `timeout` seconds pass.
    public func waitUntilReady(timeout: Double = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        let connection = try Connection(.address(bus.address))
        defer { connection.close() }
        while Date() < deadline {
            if !process.isRunning {
                throw TestSupportError("navd exited with status \(process.exitStatus ?? -1) before answering: \(log)")
            }
            if let call = try? Message.methodCall(
                destination: "org.navd.Navigator1", path: "/org/navd/Navigator1",
                interface: "org.navd.Navigator1", member: "GetState"),
                (try? connection.call(call, timeoutMilliseconds: 1_000)) != nil {
                return
            }
            usleep(20_000)
        }
        throw TestSupportError("navd did not answer within \(timeout) s: \(log)")
    }

    /// SIGTERM, then waits for the exit status (nil if it had to be killed).
    @discardableResult
    public func stop(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        if let status = process.waitForExit(timeout: timeout) { return status }
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 5)
        return nil
    }

    /// SIGKILL, as a crash.
    public func kill() {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// Starts a new navd with the same bus, state directory and arguments (after `stop()` or `kill()`).
    public func restart(timeout: Double = 15) throws {
        process = try Self.launch(bus: bus, stateDirectory: stateDirectory, arguments: extraArguments)
        try waitUntilReady(timeout: timeout)
    }

    private static func launch(bus: PrivateBus, stateDirectory: String?, arguments: [String]) throws -> ChildProcess {
        var all = ["--address", bus.address]
        if let stateDirectory { all += ["--state-dir", stateDirectory] } else { all.append("--ephemeral") }
        all += arguments
        return try ChildProcess(launching: Products.url("navd"), arguments: all)
    }
}
