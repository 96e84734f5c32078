import DBus
import Synchronization

/// What may be asked of a daemon's loop from any thread or a signal handler: to stop, or to
/// reload every route file. It exists before the daemon does, so that a request made during
/// start-up (a SIGTERM while the state is read, a SIGHUP while the apps load) is kept and acted on
/// when the loop first runs: navd makes one first thing and points its signal handlers at it.
///
/// The flags and the loop's waker live in memory of their own, freed with the control, so that a
/// `LoopRequest` can reach them through plain pointers.
public final class LoopControl: @unchecked Sendable {
    private let stopFlag: UnsafeMutablePointer<Atomic<Bool>>
    private let reloadFlag: UnsafeMutablePointer<Atomic<Bool>>
    /// Whether `waker` holds the running loop's waker: false until `attach`, false again after `detach`.
    private let attached: UnsafeMutablePointer<Atomic<Bool>>
    private let waker: UnsafeMutablePointer<Waker>

    /// A control with nothing asked yet and no loop to wake.
    public init() {
        stopFlag = .allocate(capacity: 1)
        stopFlag.initialize(to: Atomic(false))
        reloadFlag = .allocate(capacity: 1)
        reloadFlag.initialize(to: Atomic(false))
        attached = .allocate(capacity: 1)
        attached.initialize(to: Atomic(false))
        waker = .allocate(capacity: 1)
    }

    deinit {
        stopFlag.deinitialize(count: 1)
        stopFlag.deallocate()
        reloadFlag.deinitialize(count: 1)
        reloadFlag.deallocate()
        attached.deinitialize(count: 1)
        attached.deallocate()
        waker.deallocate()
    }

    /// A handle that asks the loop to stop after the calls in hand; valid while the control lives.
    public var stopRequest: LoopRequest { LoopRequest(flag: stopFlag, attached: attached, waker: waker) }

    /// A handle that asks the loop to reload every route file (what `SIGHUP` does); valid while the
    /// control lives.
    public var reloadRequest: LoopRequest { LoopRequest(flag: reloadFlag, attached: attached, waker: waker) }

    /// Whether a stop was asked for (it stays asked).
    public var isStopRequested: Bool { stopFlag.pointee.load(ordering: .acquiring) }

    /// Whether a reload was asked for since the last call; asks coalesce until then.
    func takeReloadRequest() -> Bool {
        reloadFlag.pointee.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// From now on a request also wakes the loop that `waker` belongs to. Called by the loop's
    /// thread before it first waits; a request made before is seen by its first look at the flags.
    func attach(_ waker: Waker) {
        if attached.pointee.load(ordering: .acquiring) { return }
        self.waker.initialize(to: waker)
        attached.pointee.store(true, ordering: .releasing)
    }

    /// Requests no longer wake anything: called before the loop's connection (and its eventfd) closes.
    func detach() {
        attached.pointee.store(false, ordering: .releasing)
    }
}

/// Asks a daemon's loop for one thing (see `LoopControl`) from anywhere, including a signal
/// handler: one atomic store, one atomic load and at most one eventfd write; no retain or
/// release, no allocation. Made of plain values, so a handler can read it from a global.
public struct LoopRequest: @unchecked Sendable {
    let flag: UnsafeMutablePointer<Atomic<Bool>>
    let attached: UnsafeMutablePointer<Atomic<Bool>>
    let waker: UnsafeMutablePointer<Waker>

    /// Sets the flag and wakes the loop if it runs (async-signal-safe).
    public func request() {
        flag.pointee.store(true, ordering: .releasing)
        if attached.pointee.load(ordering: .acquiring) { waker.pointee.wake() }
    }
}
