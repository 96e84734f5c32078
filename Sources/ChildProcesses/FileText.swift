import Glibc

/// Whole files read with read(2).
///
/// Not `String(contentsOfFile:)`, `FileManager.contents(atPath:)` or `Data(contentsOf:)`: on
/// Linux their Foundation leaks a 4 KiB buffer for every empty file it reads (its zero-size
/// path never frees it), and a child's output file or a /proc file (which reports size 0)
/// often reads as empty; LeakSanitizer reported each one.
public enum FileText {
    /// The file's whole bytes, or nil when it cannot be opened.
    public static func bytes(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// The file's whole text (UTF-8, invalid bytes replaced), or nil when it cannot be opened.
    public static func read(_ path: String) -> String? {
        bytes(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
