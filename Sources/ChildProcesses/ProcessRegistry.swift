import Glibc
import Synchronization

/// The pids of the processes and bus daemons the harness started and has not yet stopped.
///
/// A test runner may exit before the last fixtures are released: an exit handler then sends
/// SIGTERM to what is left, by pid. A program such as a benchmark can also ask for the same
/// on SIGINT and SIGTERM (`stopAllOnInterrupt()`). Slots are plain integers in fixed
/// memory, so that a signal handler can read them.
public enum ProcessRegistry {
    private static let capacity = 256
    private nonisolated(unsafe) static let slots: UnsafeMutablePointer<pid_t> = {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        atexit { ProcessRegistry.terminateAll() }
        return slots
    }()
    /// Serializes writers; the signal handler only reads.
    private static let writers = Mutex(())

    /// Remembers `pid` until `forget(pid)`. When every slot is taken it is not remembered
    /// (its owner still stops it; only the exit handler would miss it).
    public static func remember(_ pid: pid_t) {
        guard pid > 0 else { return }
        let slots = slots
        writers.withLock { _ in
            for index in 0..<capacity where slots[index] == 0 {
                slots[index] = pid
                return
            }
        }
    }

    /// Forgets `pid` (it was stopped or reaped).
    public static func forget(_ pid: pid_t) {
        guard pid > 0 else { return }
        let slots = slots
        writers.withLock { _ in
            for index in 0..<capacity where slots[index] == pid { slots[index] = 0 }
        }
    }

    /// Installs SIGINT and SIGTERM handlers that send SIGTERM to every remembered pid and then
    /// exit with 128 + the signal. For programs, not for test runners. Safe to call twice.
    public static func stopAllOnInterrupt() {
        installInterruptHandlers { signal in
            ProcessRegistry.terminateAll()
            _exit(128 + signal)
        }
    }

    /// `stopAllOnInterrupt()` with SIGKILL instead of SIGTERM: for children that keep nothing (an
    /// ephemeral navd and its private bus), which must be gone even when one of them hangs.
    public static func killAllOnInterrupt() {
        installInterruptHandlers { signal in
            ProcessRegistry.signalAll(SIGKILL)
            _exit(128 + signal)
        }
    }

    private static func installInterruptHandlers(_ handler: @convention(c) (Int32) -> Void) {
        _ = slots
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }

    /// SIGTERM to every remembered pid; reads the slots only (async-signal-safe).
    private static func terminateAll() { signalAll(SIGTERM) }

    /// `signal` to every remembered pid; reads the slots only (async-signal-safe).
    private static func signalAll(_ signal: Int32) {
        let slots = slots
        for index in 0..<capacity where slots[index] > 0 { kill(slots[index], signal) }
    }
}
