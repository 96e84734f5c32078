import Foundation

/// A named thread running one piece of work, which the test can wait for with a timeout: the
/// thread of a client that runs while navd is killed under it.
final class JoinableThread: @unchecked Sendable {
    private let lock = NSLock()
    private var joined = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a thread named `name`.
    init(_ name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            work()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits up to `timeout` seconds for the work to end; false if it did not. Safe to call again.
    func join(timeout: Double) -> Bool {
        if lock.withLock({ joined }) { return true }
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        lock.withLock { joined = true }
        return true
    }
}
