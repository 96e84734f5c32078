import DBus
import Logging
import NavigatorProtocol
import Navigation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The navd service: one thread owns the bus connection, the navigation state and the store.
///
/// Lifecycle: `init` connects, takes the bus name, restores the state; `run()` announces it
/// (`StackChanged` with cause `restore` or `start`) and serves until `requestStop()`; then it finishes
/// the calls in hand, commits them, writes a snapshot, releases the name and returns.
///
/// Calls that change the tree are applied in memory as they are read, then committed together
/// (group commit) before any of them is answered: reply, `StackChanged` per change, then one
/// `PropertiesChanged` with the final values. A read that follows pending changes commits them first,
/// so nothing is ever shown that is not durable.
public final class NavigatorDaemon {
    let options: ServiceOptions
    let logger: Logger
    let connection: Connection
    let server = ObjectServer()
    var coordinator: Coordinator
    let store: StateStore?
    private let lock: StateLock?
    /// Whether the state came from disk (start-up cause `restore`) or is fresh (`start`).
    let restored: Bool

    /// Mutating calls applied in memory but not yet committed, in arrival order.
    var pending: [PendingCall] = []
    /// Properties changed by the pending calls.
    var pendingProperties: Set<ChangedProperty> = []
    /// The answers of a commit, written to the bus together (kept for its capacity).
    private var outgoing: [OutgoingMessage] = []
    /// The change made by the handler that just ran (set by `mutate`, read by `process`).
    var currentChange: Change?
    /// Set from any thread or a signal handler to stop the loop; freed with the daemon.
    private let stopFlag: UnsafeMutablePointer<Atomic<Bool>>

    /// One answered-after-commit call.
    struct PendingCall {
        let call: Message
        let reply: OutgoingMessage?
        let succeeded: Bool
        /// The change the call made (nil for a no-op or a refusal); its `StackChanged` is built
        /// when the batch is answered.
        let change: Change?
        let record: StoredRecord?
    }

    /// Connects, takes the name and restores the state. Throws a `StartupError` that says what to do.
    public init(options: ServiceOptions, logger: Logger) throws(StartupError) {
        self.options = options
        self.logger = logger
        do {
            connection = try Connection(options.bus)
        } catch {
            throw StartupError("cannot connect to the \(Self.describe(options.bus)): \(error.message)")
        }
        do {
            try connection.requestName(Navigator.busName)
        } catch {
            connection.close()
            throw StartupError("navd is already running: \(error.message)")
        }

        if let directory = options.stateDirectory {
            try Self.makeDirectory(directory)
            lock = try StateLock(directory: directory)
            do {
                // The state lock keeps every other navd out of the directory, so the store may
                // hold SQLite's lock for as long as it is open.
                store = try StateStore(directory: directory, durability: options.durability, exclusive: true)
            } catch {
                throw StartupError(error.message)
            }
        } else {
            lock = nil
            store = nil
        }
        coordinator = Coordinator(graph: options.graph)
        restored = try Self.restore(into: &coordinator, from: store, graph: options.graph, logger: logger)
        // Allocated after the last throw: a failed init runs no deinit, which would leak it.
        stopFlag = .allocate(capacity: 1)
        stopFlag.initialize(to: Atomic(false))
        exportObject()
    }

    /// Serves until `requestStop()` is called or the bus goes away. Returns the exit status.
    public func run() -> Int32 {
        announceStart()
        logger.notice("navd \(Navigator.version) serving \(Navigator.busName) on the \(Self.describe(options.bus)) at revision \(coordinator.revision)\(store == nil ? " (ephemeral)" : "")")
        var status: Int32 = 0
        loop: while true {
            while let message = connection.popMessage() {
                process(message)
            }
            if !pending.isEmpty { commitPending() }
            if stopFlag.pointee.load(ordering: .acquiring) { break }
            switch connection.waitForMessages(timeoutMilliseconds: -1) {
            case .disconnected:
                logger.error("lost the connection to the \(connection.describedBus); exiting so that the service manager can restart navd")
                status = 1
                break loop
            case .messages, .timedOut, .woken:
                continue
            }
        }
        shutDown()
        return status
    }

    deinit {
        stopFlag.deinitialize(count: 1)
        stopFlag.deallocate()
    }

    /// Asks the loop to stop after the calls in hand; safe from any thread.
    public func requestStop() {
        stopRequest.request()
    }

    /// A handle that stops this daemon's loop, made of plain values (a pointer to the atomic stop
    /// flag and the connection's eventfd), so that a signal handler can use it without touching a
    /// Swift object. Valid while the daemon lives.
    public var stopRequest: StopRequest { StopRequest(flag: stopFlag, waker: connection.waker) }

    /// Stops a daemon's loop from anywhere, including a signal handler: one atomic store and one
    /// eventfd write, no retain or release, no allocation.
    public struct StopRequest: @unchecked Sendable {
        let flag: UnsafeMutablePointer<Atomic<Bool>>
        let waker: Waker

        /// Sets the stop flag and wakes the loop (async-signal-safe).
        public func request() {
            flag.pointee.store(true, ordering: .releasing)
            waker.wake()
        }
    }

    /// The description of a bus for messages.
    static func describe(_ bus: BusAddress) -> String {
        switch bus {
        case .session: return "session bus"
        case .system: return "system bus"
        case .address(let address): return "bus at \(address)"
        }
    }

    private static func makeDirectory(_ path: String) throws(StartupError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw StartupError("cannot create the state directory \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    // MARK: The loop's steps

    /// Routes one incoming message: mutations are held for the group commit, everything else is
    /// answered at once (after committing what is pending, so reads see only durable state).
    func process(_ message: Message) {
        guard message.kind == .methodCall else {
            if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                logger.error("the bus closed the connection")
            }
            return
        }
        let isMutation = message.path == Navigator.objectPath.rawValue
            && (message.interface == nil || message.interface == Navigator.interfaceName)
            && NavigatorMethod.treeChangingNames.contains(message.member ?? "")
        if !isMutation {
            if !pending.isEmpty { commitPending() }
            if let reply = server.handle(message) { send(reply) }
            return
        }
        currentChange = nil
        let reply = server.handleForSending(message)
        let change = currentChange
        currentChange = nil
        if options.verbose {
            logger.debug("\(message.member ?? "?") from \(message.sender ?? "?") → \(change.map { $0.isNoOp ? "no-op at \($0.revision)" : "revision \($0.revision)" } ?? (reply?.errorName ?? "no reply"))")
        }
        guard let change, !change.isNoOp else {
            pending.append(PendingCall(call: message, reply: reply, succeeded: change != nil, change: nil, record: nil))
            return
        }
        pendingProperties.formUnion(change.changedProperties)
        for note in change.notes { logger.notice("\(note)") }
        // An ephemeral navd journals nothing, so it encodes nothing either.
        let stored = store == nil ? nil : change.record.map { StoredRecord(revision: $0.revision, payload: $0.encoded()) }
        pending.append(PendingCall(call: message, reply: reply, succeeded: true, change: change, record: stored))
        if pending.count >= 512 { commitPending() }
    }

    /// Commits the pending changes in one transaction, then answers them in order: reply,
    /// `StackChanged`, `FlowFinished` per flow the change ended, and one `PropertiesChanged` at the
    /// end. The first reply is written as soon as the batch is durable; the signals are built after
    /// it, and the rest follows in one write. If the commit fails, every call that succeeded in
    /// memory is answered `StorageFailed` and the state goes back to the last commit.
    func commitPending() {
        let records = pending.compactMap(\.record)
        if let store, !records.isEmpty {
            do {
                try store.append(records)
            } catch {
                rollBack(after: error)
                return
            }
        }
        outgoing.removeAll(keepingCapacity: true)
        for (index, call) in pending.enumerated() {
            if let reply = call.reply {
                outgoing.append(reply)
                if index == 0 { sendOutgoing() }
            }
            if let change = call.change, let signal = stackChangedSignal(
                revision: change.revision, cause: change.cause, tab: change.selectedTab, path: change.path
            ) {
                outgoing.append(.marshalled(signal))
            }
            if let change = call.change {
                for signal in flowFinishedSignals(change) { outgoing.append(.marshalled(signal)) }
            }
        }
        if !pendingProperties.isEmpty, let signal = propertiesChangedSignal(pendingProperties) {
            outgoing.append(.marshalled(signal))
        }
        sendOutgoing()
        pending.removeAll(keepingCapacity: true)
        pendingProperties.removeAll(keepingCapacity: true)
        if let store, store.shouldSnapshot {
            // The answers go out first: a snapshot costs time in proportion to the tree.
            connection.flush()
            writeSnapshot(store)
        }
    }

    /// After a failed commit: the state goes back to the last commit, and each call of the batch
    /// is answered as if the batch had run against that state, in order, with nothing made durable.
    /// A call that would change the tree is answered `StorageFailed` (and changes nothing); a no-op
    /// keeps its answer; a refusal gets its message computed against the restored state.
    private func rollBack(after error: StoreError) {
        logger.error("could not commit \(pending.count) call(s), answering StorageFailed: \(error.message)")
        let failure = NavigatorErrorName.storageFailed.error(
            "the change could not be made durable, so nothing changed: \(error.message)")
        do {
            var restoredCoordinator = Coordinator(graph: options.graph)
            _ = try Self.restore(into: &restoredCoordinator, from: store, graph: options.graph, logger: logger, compact: false)
            coordinator = restoredCoordinator
        } catch {
            logger.critical("cannot re-read the state after a failed commit: \(error.message)")
        }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        pendingProperties.removeAll(keepingCapacity: true)
        for call in batch {
            let before = coordinator
            currentChange = nil
            let reply = server.handle(call.call)
            let change = currentChange
            currentChange = nil
            if let change, !change.isNoOp {
                coordinator = before
                if !call.call.noReplyExpected { send(call.call.makeError(failure)) }
            } else if let reply {
                send(reply)
            }
        }
    }

    private func shutDown() {
        while let message = connection.popMessage() { process(message) }
        if !pending.isEmpty { commitPending() }
        if let store {
            if store.journalLength > 0 { writeSnapshot(store) }
            store.close()
        }
        try? connection.releaseName(Navigator.busName)
        connection.flush()
        connection.close()
        logger.notice("navd stopped at revision \(coordinator.revision)")
    }

    func writeSnapshot(_ store: StateStore) {
        do {
            try store.writeSnapshot(revision: coordinator.revision, document: coordinator.state.encodedSnapshot())
        } catch {
            logger.warning("could not write a snapshot (the journal keeps every change, so nothing is lost): \(error.message)")
        }
        // The encoded document was large and short-lived: give its pages back to the system.
        releaseFreedMemory()
    }

    func send(_ message: Message) {
        do {
            try connection.send(message)
        } catch {
            logger.error("could not send a message: \(error.message)")
        }
    }

    /// Sends what `outgoing` holds (if anything) and empties it.
    private func sendOutgoing() {
        if outgoing.isEmpty { return }
        send(outgoing)
        outgoing.removeAll(keepingCapacity: true)
    }

    /// Sends `batch` in order, the marshalled messages in one write per run.
    func send(_ batch: [OutgoingMessage]) {
        do {
            try connection.send(batch)
        } catch {
            logger.error("could not send \(batch.count) message(s): \(error.message)")
        }
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim` (malloc.h is not part of the Glibc module): returns freed heap pages to
/// the system after a large, short-lived allocation such as a snapshot document.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

func releaseFreedMemory() { _ = glibcMallocTrim(0) }
#else
/// Other C libraries return freed pages on their own.
func releaseFreedMemory() {}
#endif
