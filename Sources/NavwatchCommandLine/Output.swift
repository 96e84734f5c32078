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

