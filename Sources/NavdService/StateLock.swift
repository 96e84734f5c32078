#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a state directory, so that two navd processes (on two buses, say) never
/// write the same database. Released when the process exits, however it exits.
final class StateLock {
    /// The lock file's name inside the state directory.
    static let fileName = "navd.lock"

    private let fd: Int32

    /// Takes `<directory>/navd.lock`, or explains who holds it.
    init(directory: String) throws(StartupError) {
        let path = directory + "/" + Self.fileName
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StartupError("cannot open \(path): \(String(cString: strerror(errno))); check that the state directory is writable")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, 31, 0)
            let holder = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingTrailingNewlines : "another process"
            close(fd)
            throw StartupError("the state directory \(directory) is in use by another navd (pid \(holder)); stop it first, or give this one --state-dir or --ephemeral")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit { close(fd) }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var s = self
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }
}
