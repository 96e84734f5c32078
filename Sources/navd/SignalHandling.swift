import NavdService

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT stop the daemon after the calls in hand; SIGHUP reloads every route file;
/// SIGPIPE is ignored.
///
/// The handler reads only plain values (the daemon's `LoopRequest`s: a pointer to an atomic flag and
/// an eventfd), so it neither retains nor releases a Swift object.
enum SignalHandling {
    nonisolated(unsafe) private static var stop: LoopRequest?
    nonisolated(unsafe) private static var reload: LoopRequest?

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
