import Glibc

/// The pids of every service and bus the benchmark started, so that SIGINT or SIGTERM stops
/// them (by pid) before navd-bench exits. Slots are plain integers: a signal handler reads them.
enum ProcessRegistry {
    private nonisolated(unsafe) static var slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
    private static let capacity = 64
    private nonisolated(unsafe) static var installed = false

    /// Remembers `pid` until `forget(pid)`.
    static func remember(_ pid: pid_t) {
        installHandlers()
        for index in 0..<capacity where slots[index] == 0 {
            slots[index] = pid
            return
        }
    }

    /// Forgets `pid` (it was stopped).
    static func forget(_ pid: pid_t) {
        for index in 0..<capacity where slots[index] == pid { slots[index] = 0 }
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        slots.initialize(repeating: 0, count: capacity)
        let handler: @convention(c) (Int32) -> Void = { signal in
            for index in 0..<ProcessRegistry.capacity where ProcessRegistry.slots[index] > 0 {
                kill(ProcessRegistry.slots[index], SIGTERM)
            }
            _exit(128 + signal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }
}
