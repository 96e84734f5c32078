import DBus
import Synchronization

/// Asks a daemon's loop for something (to stop, or to reload every route file) from anywhere,
/// including a signal handler: one atomic store and one eventfd write, no retain or release, no
/// allocation. Made of plain values, so a handler can read it from a global.
public struct LoopRequest: @unchecked Sendable {
    let flag: UnsafeMutablePointer<Atomic<Bool>>
    let waker: Waker

    /// Sets the flag and wakes the loop (async-signal-safe).
    public func request() {
        flag.pointee.store(true, ordering: .releasing)
        waker.wake()
    }
}
