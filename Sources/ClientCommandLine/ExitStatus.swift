#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// The exit statuses of navctl and navwatch (documented in navctl(1) and navwatch(1)).
public enum ExitStatus {
    /// The command did what it was asked.
    public static let success: Int32 = 0
    /// navd refused the call (its D-Bus error is on stderr).
    public static let refused: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 2
    /// navd (or the bus) could not be reached.
    public static let unreachable: Int32 = 3

    /// Prints an argument-parser outcome of `command` (help, completion script, or a usage error) and returns
    /// the exit status: success for help, `usage` for the parser's usage errors, the parser's own code otherwise.
    public static func report<Command: ParsableCommand>(parserError error: Error, of command: Command.Type) -> Int32 {
        let code = command.exitCode(for: error)
        let message = command.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            fflush(nil)
            return success
        }
        if !message.isEmpty { printError(message) }
        return code == .validationFailure ? usage : code.rawValue
    }
}

/// Writes `text` and a newline to standard error, after flushing standard output; each of its lines is
/// `terminalSafe` (a message may carry text from the bus).
public func printError(_ text: String) {
    fflush(nil)
    let line = text.terminalSafeLines + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

/// Flushes standard output and ends the process with `status`.
public func terminate(withStatus status: Int32) -> Never {
    fflush(nil)
    exit(status)
}
