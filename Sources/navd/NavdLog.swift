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

/// SIGTERM and SIGINT stop the daemon after the calls in hand; SIGHUP reloads every route file;
/// SIGPIPE is ignored.
///
/// The handler reads only plain values (the daemon's `StopRequest`: a pointer to an atomic flag and
/// an eventfd), so it neither retains nor releases a Swift object.
enum SignalHandling {
    nonisolated(unsafe) private static var stop: NavigatorDaemon.StopRequest?
    nonisolated(unsafe) private static var reload: NavigatorDaemon.StopRequest?

    static func install(stopping daemon: NavigatorDaemon) {
        Self.stop = daemon.stopRequest
        signal(SIGPIPE, SIG_IGN)
        let handler: @convention(c) (Int32) -> Void = { _ in SignalHandling.stop?.request() }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        Self.reload = daemon.reloadRequest
        let reloadHandler: @convention(c) (Int32) -> Void = { _ in SignalHandling.reload?.request() }
        signal(SIGHUP, reloadHandler)
    }
}
