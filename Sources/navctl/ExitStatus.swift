#if canImport(Glibc)
import Glibc
#endif

/// navctl's exit statuses (documented in README).
enum ExitStatus {
    /// The command did what it was asked.
    static let success: Int32 = 0
    /// navd refused the call (its D-Bus error is on stderr).
    static let refused: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
    /// navd (or the bus) could not be reached.
    static let unreachable: Int32 = 3
}

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
    fflush(nil)
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

/// Flushes standard output and ends the process with `status`.
func terminate(withStatus status: Int32) -> Never {
    fflush(nil)
    exit(status)
}
