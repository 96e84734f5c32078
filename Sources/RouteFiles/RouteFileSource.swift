#if canImport(Glibc)
import Glibc
#endif

/// Reading a route file's bytes in bounded time and memory, whatever sits at its path.
///
/// Only a regular file (a symlink counts as what it points to) of at most ``maximumBytes`` is
/// read. A FIFO, a device or a folder named like a route file is refused before it is opened for
/// reading, so nothing can block the caller; a file that grows past the bound while it is read is
/// refused too. Every refusal names the file and says what is wrong (`docs/reliability.md#bounded-route-files`).
public enum RouteFileSource {
    /// The largest route file navd reads: 1 MiB.
    public static let maximumBytes = 1 << 20

    /// The bytes of the route file at `path`, or a ``RouteFileError`` naming it and the reason.
    public static func read(_ path: String, maximumBytes: Int = maximumBytes) throws(RouteFileError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw RouteFileError(file: path, keyPath: "", problem: "cannot read the route file: \(describeErrno(errno))")
        }
        try requireRegular(status, path)
        // O_NONBLOCK: should the path be swapped for a FIFO after the check, open still returns
        // at once, and fstat below refuses it.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RouteFileError(file: path, keyPath: "", problem: "cannot read the route file: \(describeErrno(errno))")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            throw RouteFileError(file: path, keyPath: "", problem: "cannot read the route file: \(describeErrno(errno))")
        }
        try requireRegular(status, path)
        let limit = maximumBytes
        if Int(status.st_size) > limit { throw tooLarge(path, limit) }
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else { throw tooLarge(path, limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw RouteFileError(file: path, keyPath: "", problem: "cannot read the route file: \(describeErrno(errno))")
            }
            if got == 0 { break }
            count += got
        }
        if count > limit { throw tooLarge(path, limit) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Refuses anything but a regular file, naming what it is.
    static func requireRegular(_ status: stat, _ path: String) throws(RouteFileError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw RouteFileError(file: path, keyPath: "", problem: "is \(kind), not a regular file; a route file must be a regular YAML file")
    }

    static func tooLarge(_ path: String, _ limit: Int) -> RouteFileError {
        RouteFileError(file: path, keyPath: "", problem: "is larger than \(limit / 1024) KiB, the most navd reads of a route file; split it or remove what it repeats")
    }

    /// `strerror`'s sentence for `code`.
    static func describeErrno(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
