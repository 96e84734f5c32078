import NavdService

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT stop navd after the calls in hand; SIGHUP reloads every route file; SIGPIPE
/// is ignored. Installed first thing, before the route file is read, the store opened or the bus
/// connected: a request during start-up is kept by the `LoopControl` and acted on when navd
/// serves (a stop before serving, or one reload once it serves), so no signal kills navd halfway.
///
/// The handlers read only plain values (the control's `LoopRequest`s: pointers to atomic flags
/// and to the loop's eventfd), so they neither retain nor release a Swift object.
enum SignalHandling {
    nonisolated(unsafe) private static var stop: LoopRequest?
    nonisolated(unsafe) private static var reload: LoopRequest?
    /// Kept for the life of the process: the requests point into its memory.
    nonisolated(unsafe) private static var control: LoopControl?

    /// Makes the control the daemon will run under and points the signals at it.
    static func install() -> LoopControl {
        let control = LoopControl()
        Self.control = control
        Self.stop = control.stopRequest
        Self.reload = control.reloadRequest
        signal(SIGPIPE, SIG_IGN)
        let stopHandler: @convention(c) (Int32) -> Void = { _ in SignalHandling.stop?.request() }
        signal(SIGTERM, stopHandler)
        signal(SIGINT, stopHandler)
        let reloadHandler: @convention(c) (Int32) -> Void = { _ in SignalHandling.reload?.request() }
        signal(SIGHUP, reloadHandler)
        return control
    }
}
