import DBus
import Synchronization

/// The thread behind one iteration of `NavigatorUpdates`: it owns a connection of its own (so it
/// is the only reader of that connection), follows navd like navwatch's loop does, and hands what
/// it sees to the iteration's stream.
///
/// | event | what it does |
/// | --- | --- |
/// | start | subscribe, then GetState: `.state` with cause `state`, or `.navdGone` |
/// | StackChanged, revision = last + 1 | `.state` |
/// | StackChanged, revision ≤ last | nothing (already shown) |
/// | StackChanged, revision > last + 1 | missed a signal: GetState, `.state` |
/// | StackChanged, cause `start`/`restore`, or after `.navdGone` | navd (re)started: `.state`, the new baseline |
/// | FlowFinished | `.flowFinished` |
/// | NameOwnerChanged, owner gone | `.navdGone` (once) |
/// | NameOwnerChanged, new owner | wait up to 500 ms for its start-up signal, else GetState |
/// | InterfacesRemoved for the followed app | `.navdGone` (once) |
/// | InterfacesAdded for the followed app | wait up to 500 ms for its start-up signal, else GetState |
/// | `stop()` (consumer cancelled, iterator dropped, navigator closed) | the thread ends, the stream finishes |
/// | the bus goes away | the stream finishes with `.unreachable` |
final class UpdateReader: Sendable {
    typealias Stream = AsyncThrowingStream<NavigatorUpdate, any Error>

    /// What `stop()` and the thread share: whether to stop, and the connection to wake.
    private struct Control {
        var stopping = false
        var connection: Connection?
    }

    private let bus: BusAddress
    private let app: String?
    private let timeoutMilliseconds: Int32
    private let continuation: Stream.Continuation
    private let control = Mutex(Control())
    /// Runs once when the thread ends (the navigator forgets the reader).
    private let onEnd: @Sendable (UpdateReader) -> Void

    /// How long a new owner of navd's name gets to send its start-up signal before GetState.
    static let startupSignalWaitMilliseconds: Int64 = 500
    /// The name of the reader's thread, as `/proc/self/task/*/comm` shows it.
    static let threadName = "navd-updates"

    init(bus: BusAddress, app: String?, timeoutMilliseconds: Int32, continuation: Stream.Continuation,
         onEnd: @escaping @Sendable (UpdateReader) -> Void) {
        self.bus = bus
        self.app = app
        self.timeoutMilliseconds = timeoutMilliseconds
        self.continuation = continuation
        self.onEnd = onEnd
    }

    /// Starts the thread; when no thread can be made the stream fails at once.
    func start() {
        let started = DetachedThread.start(named: Self.threadName) { [self] in
            run()
            continuation.finish()
            onEnd(self)
        }
        if !started {
            continuation.finish(throwing: NavigatorError.unreachable(bus: bus.displayName, reason: "no thread for the updates"))
            onEnd(self)
        }
    }

    /// Makes the thread end soon (it wakes from its wait); safe from any thread, and to call twice.
    func stop() {
        let connection = control.withLock { control in
            control.stopping = true
            return control.connection
        }
        connection?.wake()
    }

    private var isStopping: Bool { control.withLock { $0.stopping } }

    /// The thread's body: returns when stopped or when the bus is gone.
    private func run() {
        let client: NavigatorClient
        do {
            client = try NavigatorClient(bus: bus, app: app, timeoutMilliseconds: timeoutMilliseconds)
            try client.subscribe()
        } catch {
            continuation.finish(throwing: error)
            return
        }
        let attached = control.withLock { control in
            control.connection = client.connection
            return !control.stopping
        }
        defer { control.withLock { $0.connection = nil } }
        guard attached else { return }

        var follower = Follower(client: client, continuation: continuation)
        follower.resync()
        while !isStopping, !follower.consumerLeft {
            var wait: Int32 = -1
            if let deadline = follower.resyncDeadline {
                wait = Int32(clamping: max(0, deadline - MonotonicClock.milliseconds()))
            }
            let event = client.nextEvent(timeoutMilliseconds: wait)
            if case .busDisconnected = event {
                continuation.finish(throwing: NavigatorError.unreachable(bus: client.busDescription, reason: "the bus went away"))
                return
            }
            follower.handle(event)
            if let deadline = follower.resyncDeadline, MonotonicClock.milliseconds() >= deadline {
                follower.resync()
            }
        }
    }
}

/// The reader's bookkeeping: the last revision yielded, whether navd is gone, and a pending resync.
private struct Follower {
    let client: NavigatorClient
    let continuation: UpdateReader.Stream.Continuation
    private(set) var lastRevision: UInt64?
    private(set) var isGone = false
    /// When to GetState if navd's new owner has not sent its start-up signal by then.
    private(set) var resyncDeadline: Int64?
    /// Set when a yield found the stream terminated (the consumer is gone).
    private(set) var consumerLeft = false

    /// Fetches the state and yields it with cause `state`; yields `.navdGone` when navd does not answer
    /// (or answers that the followed app is not there).
    mutating func resync() {
        resyncDeadline = nil
        do {
            yield(StateChange(cause: "state", state: try client.state()))
        } catch {
            markGone()
        }
    }

    /// Follows the table above. Every `NavigatorEvent` is named here, so a signal added to it (with its
    /// match rule in `subscribe()`) does not compile until it is mapped onto a `NavigatorUpdate` case.
    mutating func handle(_ event: NavigatorEvent) {
        switch event {
        case .stackChanged(let change):
            if change.cause == "start" || change.cause == "restore" || lastRevision == nil || isGone {
                resyncDeadline = nil
                yield(change)
            } else if let last = lastRevision, change.revision <= last {
                return
            } else if let last = lastRevision, change.revision == last + 1 {
                yield(change)
            } else {
                do {
                    let state = try client.state()
                    yield(StateChange(cause: state.revision == change.revision ? change.cause : "state", state: state))
                } catch {
                    markGone()
                }
            }
        case .flowFinished(let finished):
            send(.flowFinished(finished))
        case .navdVanished:
            markGone()
        case .navdAppeared:
            resyncDeadline = MonotonicClock.milliseconds() + UpdateReader.startupSignalWaitMilliseconds
        case .appChanged(.removed(let name)) where name == client.app:
            resyncDeadline = nil
            markGone()
        case .appChanged(.added(let name)) where name == client.app:
            resyncDeadline = MonotonicClock.milliseconds() + UpdateReader.startupSignalWaitMilliseconds
        case .appChanged:
            break
        case .woken, .timedOut, .busDisconnected:
            break
        }
    }

    private mutating func yield(_ change: StateChange) {
        lastRevision = change.revision
        isGone = false
        send(.state(change))
    }

    private mutating func markGone() {
        guard !isGone else { return }
        isGone = true
        send(.navdGone)
    }

    private mutating func send(_ update: NavigatorUpdate) {
        if case .terminated = continuation.yield(update) { consumerLeft = true }
    }
}
