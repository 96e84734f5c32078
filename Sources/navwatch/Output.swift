#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to standard output at once (no buffering), retrying short writes.
/// A closed pipe ends navwatch quietly, as `head` users expect.
func writeOut(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            if errno == EPIPE { exit(0) }
            return
        }
        offset += written
    }
}

/// Writes `text` and a newline to standard error.
func writeError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
