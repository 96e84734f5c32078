import Foundation
import Glibc

/// A child process: stdout and stderr go to temporary files that can be read at any time;
/// started with a clean signal state (so SIGTERM reaches it); remembered in `ProcessRegistry`
/// while it runs; killed by its pid (SIGKILL) in deinit if still running, and always reaped.
public final class ChildProcess: @unchecked Sendable {
    /// Which output stream to look at.
    public enum Stream: Sendable {
        /// Standard output.
        case stdout
        /// Standard error.
        case stderr
    }

    /// The executable's path.
    public let executable: String
    /// Its arguments (without argv[0]).
    public let arguments: [String]

    private let environment: [String: String]
    private let currentDirectory: String?
    /// The file stdout goes to, for a caller that reads it incrementally (removed in deinit).
    public let stdoutPath: String
    private let outputDirectory: String
    private let stderrPath: String
    private let stdinPath: String?
    private let lock = NSLock()
    private var processID: pid_t = 0
    private var status: Int32?

    /// Prepares `executable` with `arguments`, the test's environment plus `environment`, and
    /// stdin from /dev/null (or from `standardInput`). Call `start()`.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: String? = nil, standardInput: String? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        self.currentDirectory = currentDirectory
        outputDirectory = TemporaryDirectory.make("navd-test-child")
        stdoutPath = outputDirectory + "/stdout"
        stderrPath = outputDirectory + "/stderr"
        if let standardInput {
            let path = outputDirectory + "/stdin"
            _ = FileManager.default.createFile(atPath: path, contents: Data(standardInput.utf8))
            stdinPath = path
        } else {
            stdinPath = nil
        }
    }

    /// Prepares and starts the process at once.
    public convenience init(
        launching executable: String, arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: String? = nil, standardInput: String? = nil
    ) throws {
        self.init(
            executable: executable, arguments: arguments, environment: environment,
            currentDirectory: currentDirectory, standardInput: standardInput)
        try start()
    }

    deinit {
        if processID > 0, status == nil {
            kill(processID, SIGKILL)
            Spawn.waitForExit(processID)
            ProcessRegistry.forget(processID)
        }
        TemporaryDirectory.remove(outputDirectory)
    }

    /// Starts the process; throws if it cannot be executed.
    public func start() throws {
        let pid = try Spawn.start(
            executable, arguments, environment: environment, input: stdinPath,
            output: stdoutPath, errors: stderrPath, currentDirectory: currentDirectory)
        lock.withLock { processID = pid }
        ProcessRegistry.remember(pid)
    }

    /// The process id (0 before `start()`).
    public var pid: pid_t { lock.withLock { processID } }

    /// Whether the process is still running (reaps it when it has exited).
    public var isRunning: Bool { pid > 0 && exitStatus == nil }

    /// Sends `signal` to the process by its pid, if it is still running.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the process to exit. Returns its exit status, or
    /// 128 + the signal number when a signal ended it, or nil if it is still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = exitStatus { return status }
            if Date() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// The exit status (128 + signal for a signal), or nil while running or before start.
    public var exitStatus: Int32? {
        lock.withLock {
            if status == nil, processID > 0 {
                status = Spawn.reap(processID)
                if status != nil { ProcessRegistry.forget(processID) }
            }
            return status
        }
    }

    /// Everything written to stdout so far.
    public var stdoutText: String { FileText.read(stdoutPath) ?? "" }

    /// Everything written to stderr so far.
    public var stderrText: String { FileText.read(stderrPath) ?? "" }

    /// Waits up to `timeout` seconds until `stream` contains `text`; returns whether it did.
    @discardableResult
    public func waitForOutput(containing text: String, in stream: Stream = .stdout, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let exited = !isRunning
            let output = stream == .stdout ? stdoutText : stderrText
            if output.contains(text) { return true }
            if exited || Date() >= deadline { return false }
            usleep(5_000)
        }
    }

    /// Sends `signal` (SIGTERM unless told otherwise) and waits up to `timeout` seconds for the
    /// exit status; if the process is still running then, SIGKILL, and nil. The exit status at
    /// once when it had already exited.
    @discardableResult
    public func stop(with signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        if let status = exitStatus { return status }
        self.signal(signal)
        if let status = waitForExit(timeout: timeout) { return status }
        self.signal(SIGKILL)
        _ = waitForExit(timeout: 5)
        return nil
    }

    /// Runs `executable` to completion (at most `timeout` seconds, then SIGKILL) and returns
    /// its exit status and output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        standardInput: String? = nil, timeout: Double = 30
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(
            launching: executable, arguments: arguments, environment: environment, standardInput: standardInput)
        guard let status = child.waitForExit(timeout: timeout) else {
            child.stop(with: SIGKILL, timeout: 5)
            throw HarnessError("\(executable) \(arguments) did not finish in \(timeout) s; stderr: \(child.stderrText)")
        }
        return (status, child.stdoutText, child.stderrText)
    }
}
