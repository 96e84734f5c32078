import Foundation
import TestSupport
import Testing

/// navwatch started as a real process with its stdout in a file (so not a terminal: line mode).
func startNavwatch(_ arguments: [String], bus: PrivateBus) throws -> ChildProcess {
    try ChildProcess(launching: Products.url("navwatch"), arguments: ["--address", bus.address] + arguments,
                     environment: bus.environment)
}

extension ChildProcess {
    /// Standard output's complete lines so far.
    var outputLines: [String] {
        stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits up to `timeout` seconds until stdout holds at least `count` lines; returns them.
    @discardableResult
    func waitForLines(_ count: Int, timeout: Double = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while outputLines.count < count, Date() < deadline, isRunning { usleep(10_000) }
        return outputLines
    }
}
