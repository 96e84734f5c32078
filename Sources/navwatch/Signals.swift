#if canImport(Glibc)
import Glibc
#endif
import NavdClient

/// Set by the SIGINT/SIGTERM handler; read by the loop after every event.
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
/// Set by the SIGWINCH handler; read by the loop after every event.
nonisolated(unsafe) var resizeRequested: sig_atomic_t = 0
/// The client whose wait the handlers interrupt (`wake()` is async-signal-safe).
nonisolated(unsafe) var clientToWake: NavigatorClient?

/// Installs handlers that set a flag, then wake the loop: SIGINT and SIGTERM stop it, SIGWINCH redraws.
func installSignalHandlers(waking client: NavigatorClient) {
    clientToWake = client
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT) { _ in
        stopRequested = 1
        clientToWake?.wake()
    }
    signal(SIGTERM) { _ in
        stopRequested = 1
        clientToWake?.wake()
    }
    signal(SIGWINCH) { _ in
        resizeRequested = 1
        clientToWake?.wake()
    }
}
