import Foundation

/// Scratch directories for fixtures: named for this process, unique per call.
public enum TemporaryDirectory {
    /// A new empty directory `PREFIX-PID-RANDOM` in the temporary directory; the caller
    /// removes it (`remove`). When it cannot be made, whatever is written there later fails
    /// with the reason.
    public static func make(_ prefix: String) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes `path` and everything below it, if it is there.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
