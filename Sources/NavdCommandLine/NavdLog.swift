import Logging
import NavdService

#if canImport(Glibc)
import Glibc
#endif

/// navd's log: one line per event on stderr, `navd: <level>: <message>`, which journald keeps as is.
struct NavdLog: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileOutput.standardError("navd: \(event.level): \(event.message)\n")
    }

    /// The logger: `notice` and above by default, `debug` with `--verbose`.
    static func make(verbose: Bool) -> Logger {
        Logger(label: "navd") { _ in NavdLog(logLevel: verbose ? .debug : .notice) }
    }
}

/// Unbuffered writes to stderr, whole lines at a time.
enum FileOutput {
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
