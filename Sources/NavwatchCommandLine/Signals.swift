#if canImport(Glibc)
import Glibc
#endif
import DBus
import Synchronization

/// Set by the SIGINT/SIGTERM handler; read by the loop after every event.
let stopRequested = Atomic<Bool>(false)
/// Set by the SIGWINCH handler; read (and cleared) by the loop after every event.
let resizeRequested = Atomic<Bool>(false)
/// What the handlers write to wake the loop: a plain value holding the connection's eventfd, set once
/// before the handlers are installed and only read after, so a handler retains and releases nothing.
nonisolated(unsafe) private var signalWaker: Waker?

/// Installs handlers that only store an atomic flag and write the connection's eventfd: SIGINT and SIGTERM
/// stop the loop, SIGWINCH redraws. Neither the flags nor the waker are touched lazily inside a handler:
/// both are initialised here first.
func installSignalHandlers(waking waker: Waker) {
    signalWaker = waker
    stopRequested.store(false, ordering: .relaxed)
    resizeRequested.store(false, ordering: .relaxed)
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT) { _ in
        stopRequested.store(true, ordering: .relaxed)
        signalWaker?.wake()
    }
    signal(SIGTERM) { _ in
        stopRequested.store(true, ordering: .relaxed)
        signalWaker?.wake()
    }
    signal(SIGWINCH) { _ in
        resizeRequested.store(true, ordering: .relaxed)
        signalWaker?.wake()
    }
}
