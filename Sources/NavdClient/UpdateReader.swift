import DBus
import Synchronization

/// The thread behind one iteration of `NavigatorUpdates`: it owns a connection of its own (so it
/// is the only reader of that connection), follows navd by `FollowRules` (as navwatch does), and hands
/// what it sees to the iteration's stream.
///
/// | the rules' action | what the stream gets |
/// | --- | --- |
/// | `show` | `.state` |
/// | `gone` | `.navdGone` |
/// | `flowFinished` | `.flowFinished` |
/// | `newBaseline`, `back` | nothing: the `.state` after `.navdGone` is the back marker |
///
/// | event | what it does |
/// | --- | --- |
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

        let follower = Follower(client: client)
        var consumerLeft = false
        let perform = { (action: FollowRules.Action) in
            guard let update = NavigatorUpdate(action) else { return }
            if case .terminated = self.continuation.yield(update) { consumerLeft = true }
        }
        follower.start(perform)
        while !isStopping, !consumerLeft {
            if case .busDisconnected = follower.next(idleMilliseconds: -1, perform) {
                continuation.finish(throwing: NavigatorError.unreachable(bus: client.busDescription, reason: "the bus went away"))
                return
            }
        }
    }
}
