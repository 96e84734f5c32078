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
    /// The default navigator, at `/org/navd/Navigator1`.
    let main: ServedNavigator
    /// The apps' navigators by name.
    var apps: [String: ServedNavigator] = [:]
    /// Every served navigator by its object path.
    var navigators: [String: ServedNavigator] = [:]
    private let lock: StateLock?

    /// The default navigator's state (what single-navigator code and tests read).
    var coordinator: Coordinator { main.coordinator }

    /// The default navigator's store.
    var store: StateStore? { main.store }

    /// Mutating calls applied in memory but not yet committed, in arrival order.
    var pending: [PendingCall] = []
    /// The navigators with pending calls, in the order of their first pending call.
    var pendingNavigators: [ServedNavigator] = []
    /// The answers of a commit, written to the bus together (kept for its capacity).
    private var outgoing: [OutgoingMessage] = []
    /// The reload whose files are being parsed on a thread of their own, if any.
    var reloadInFlight: ReloadJob?
    /// Reloads asked for while another was under way: the app (nil: everything), the call to
    /// answer (nil for SIGHUP), whether SIGHUP asked.
    var queuedReloads: [(ServedNavigator?, Message?, Bool)] = []
    /// The change made by the handler that just ran (set by `mutate`, read by `process`).
    var currentChange: Change?
    /// Set from any thread or a signal handler to stop the loop; freed with the daemon.
    private let stopFlag: UnsafeMutablePointer<Atomic<Bool>>
    /// Set from any thread or a signal handler (SIGHUP) to reload every route file.
    private let reloadFlag: UnsafeMutablePointer<Atomic<Bool>>

    /// One answered-after-commit call.
    struct PendingCall {
        let call: Message
        let navigator: ServedNavigator
        let reply: OutgoingMessage?
        let succeeded: Bool
        /// The change the call made (nil for a no-op or a refusal); its `StackChanged` is built
        /// when the batch is answered.
        let change: Change?
        let record: StoredRecord?
    }

    /// Connects, takes the name and restores the state of the default navigator and of every app.
    /// Throws a `StartupError` that says what to do.
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

        let store: StateStore?
        if let directory = options.stateDirectory {
            try Self.makeDirectory(directory, logger: logger)
            lock = try StateLock(directory: directory)
            do {
                // The state lock keeps every other navd out of the directory, so the store may
                // hold SQLite's lock for as long as it is open.
                store = try StateStore(directory: directory, durability: options.durability, exclusive: true)
                for notice in store?.notices ?? [] { logger.notice("\(notice)") }
            } catch {
                throw StartupError(error.message)
            }
        } else {
            lock = nil
            store = nil
        }
        var coordinator = Coordinator(graph: options.graph)
        let restored = try Self.restore(into: &coordinator, from: store, graph: options.graph, logger: logger)
        let routeFile = options.routeFile?()
        main = ServedNavigator(
            app: nil, path: Navigator.objectPath, routeFile: routeFile,
            routeFileBytes: routeFile.flatMap { Self.readFile($0) }, coordinator: coordinator,
            store: store, restored: restored)
        // Allocated after the last throw: a failed init runs no deinit, which would leak them.
        stopFlag = .allocate(capacity: 1)
        stopFlag.initialize(to: Atomic(false))
        reloadFlag = .allocate(capacity: 1)
        reloadFlag.initialize(to: Atomic(false))
        server.addObjectManager(at: Navigator.objectPath)
        server.addNode(Navigator.appsPath)
        export(main)
        loadApps()
    }

    /// Serves until `requestStop()` is called or the bus goes away. Returns the exit status.
    public func run() -> Int32 {
        announceStart()
        let appsNote = apps.isEmpty ? "" : " and \(apps.count) app(s): \(apps.keys.sorted().joined(separator: ", "))"
        logger.notice("navd \(Navigator.version) serving \(Navigator.busName) on the \(Self.describe(options.bus)) at revision \(coordinator.revision)\(appsNote)\(main.store == nil ? " (ephemeral)" : "")")
        var status: Int32 = 0
        loop: while true {
            while let message = connection.popMessage() {
                process(message)
            }
            if !pending.isEmpty { commitPending() }
            if reloadInFlight != nil { finishParsedReload() }
            if stopFlag.pointee.load(ordering: .acquiring) { break }
            if reloadFlag.pointee.exchange(false, ordering: .acquiringAndReleasing) { reloadOnSignal() }
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
        reloadFlag.deinitialize(count: 1)
        reloadFlag.deallocate()
    }

    /// Asks the loop to stop after the calls in hand; safe from any thread.
    public func requestStop() {
        stopRequest.request()
    }

    /// A handle that stops this daemon's loop, made of plain values (a pointer to the atomic stop
    /// flag and the connection's eventfd), so that a signal handler can use it without touching a
    /// Swift object. Valid while the daemon lives.
    public var stopRequest: StopRequest { StopRequest(flag: stopFlag, waker: connection.waker) }

    /// A handle that makes this daemon reload every route file (what `SIGHUP` does), built like
    /// `stopRequest` so that a signal handler can use it. Valid while the daemon lives.
    public var reloadRequest: StopRequest { StopRequest(flag: reloadFlag, waker: connection.waker) }

    /// Stops (or, as `reloadRequest`, reloads) a daemon's loop from anywhere, including a signal
    /// handler: one atomic store and one eventfd write, no retain or release, no allocation.
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

    /// Creates a state folder, or tightens one found looser than 0700/0600 (logged), by the
    /// store's one rule.
    static func makeDirectory(_ path: String, logger: Logger) throws(StartupError) {
        do {
            for notice in try StateDirectory.prepare(path) { logger.warning("\(notice)") }
        } catch {
            throw StartupError(error.message)
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
        let target = message.interface == nil || message.interface == Navigator.interfaceName
            ? navigators[message.path ?? ""] : nil
        let member = message.member ?? ""
        if let target, member == NavigatorMethod.reload.name, message.signature.isEmpty {
            // Answered when its files are parsed (off this thread) and applied.
            if !pending.isEmpty { commitPending() }
            requestReload(of: target === main ? nil : target, answering: message)
            return
        }
        guard let navigator = target, NavigatorMethod.treeChangingNames.contains(member) else {
            if !pending.isEmpty { commitPending() }
            if let reply = unknownAppReply(message) ?? server.handle(message) { send(reply) }
            return
        }
        currentChange = nil
        let reply = server.handleForSending(message)
        let change = currentChange
        currentChange = nil
        if options.verbose {
            logger.debug("\(navigator.logPrefix)\(message.member ?? "?") from \(message.sender ?? "?") → \(change.map { $0.isNoOp ? "no-op at \($0.revision)" : "revision \($0.revision)" } ?? (reply?.errorName ?? "no reply"))")
        }
        if !pendingNavigators.contains(where: { $0 === navigator }) { pendingNavigators.append(navigator) }
        guard let change, !change.isNoOp else {
            pending.append(PendingCall(call: message, navigator: navigator, reply: reply, succeeded: change != nil, change: nil, record: nil))
            return
        }
        navigator.pendingProperties.formUnion(change.changedProperties.map(NavigatorProperty.init))
        for note in change.notes { logger.notice("\(navigator.logPrefix)\(note)") }
        // An ephemeral navd journals nothing, so it encodes nothing either.
        let stored = navigator.store == nil ? nil : change.record.map {
            StoredRecord(revision: $0.revision, nextId: navigator.coordinator.state.nextIdNumber, payload: $0.encoded())
        }
        pending.append(PendingCall(call: message, navigator: navigator, reply: reply, succeeded: true, change: change, record: stored))
        if pending.count >= 512 { commitPending() }
    }

    /// Commits the pending changes, one transaction per navigator's store, then answers them in
    /// order: reply, `StackChanged`, `FlowFinished` per flow the change ended, and one
    /// `PropertiesChanged` per navigator at the end. The first reply is written as soon as its
    /// change is durable; the rest follows in one write. If a navigator's commit fails, every call
    /// to it that succeeded in memory is answered `StorageFailed` and its state goes back to its
    /// last commit; the other navigators' calls are answered as usual.
    func commitPending() {
        var failed: [ObjectIdentifier: StoreError] = [:]
        for navigator in pendingNavigators {
            guard let store = navigator.store else { continue }
            let records = pending.compactMap { $0.navigator === navigator ? $0.record : nil }
            if records.isEmpty { continue }
            do {
                try store.append(records)
            } catch {
                failed[ObjectIdentifier(navigator)] = error
            }
        }
        if !failed.isEmpty {
            rollBack(failed)
            return
        }
        outgoing.removeAll(keepingCapacity: true)
        for (index, call) in pending.enumerated() {
            if let reply = call.reply {
                outgoing.append(reply)
                if index == 0 { sendOutgoing() }
            }
            if let change = call.change {
                appendSignals(of: change, from: call.navigator)
            }
        }
        for navigator in pendingNavigators {
            appendPropertiesChanged(navigator)
        }
        sendOutgoing()
        let committed = pendingNavigators
        pending.removeAll(keepingCapacity: true)
        pendingNavigators.removeAll(keepingCapacity: true)
        var flushed = false
        for navigator in committed {
            guard let store = navigator.store, store.shouldSnapshot else { continue }
            // The answers go out first: a snapshot costs time in proportion to the tree.
            if !flushed { connection.flush() }
            flushed = true
            writeSnapshot(navigator)
        }
    }

    /// `StackChanged` and the change's `FlowFinished` signals from `navigator`'s path, into `outgoing`.
    private func appendSignals(of change: Change, from navigator: ServedNavigator) {
        if let signal = stackChangedSignal(
            navigator, revision: change.revision, cause: change.cause, tab: change.selectedTab, path: change.path
        ) {
            outgoing.append(.marshalled(signal))
        }
        for signal in flowFinishedSignals(change, from: navigator) { outgoing.append(.marshalled(signal)) }
    }

    /// One `PropertiesChanged` with `navigator`'s pending properties (if any), into `outgoing`.
    private func appendPropertiesChanged(_ navigator: ServedNavigator) {
        if !navigator.pendingProperties.isEmpty, let signal = propertiesChangedSignal(navigator, navigator.pendingProperties) {
            outgoing.append(.marshalled(signal))
        }
        navigator.pendingProperties.removeAll(keepingCapacity: true)
    }

    /// Announces a change made outside a method call's group commit (a reload): `StackChanged`,
    /// its `FlowFinished` signals and one `PropertiesChanged`, in one write.
    func announce(_ change: Change?, from navigator: ServedNavigator) {
        outgoing.removeAll(keepingCapacity: true)
        if let change { appendSignals(of: change, from: navigator) }
        appendPropertiesChanged(navigator)
        sendOutgoing()
    }

    /// After failed commits: each failed navigator's state goes back to its last commit, and each
    /// call of the batch is answered in order. A call to a failed navigator is answered as if the
    /// batch had run against the restored state, with nothing made durable: a call that would change
    /// the tree is answered `StorageFailed` (and changes nothing); a no-op keeps its answer; a
    /// refusal gets its message computed against the restored state. Calls to the others are
    /// answered as committed.
    private func rollBack(_ failures: [ObjectIdentifier: StoreError]) {
        let batch = pending
        let navigatorsInBatch = pendingNavigators
        pending.removeAll(keepingCapacity: true)
        pendingNavigators.removeAll(keepingCapacity: true)
        for navigator in navigatorsInBatch {
            guard let error = failures[ObjectIdentifier(navigator)] else { continue }
            let count = batch.filter { $0.navigator === navigator }.count
            logger.error("\(navigator.logPrefix)could not commit \(count) call(s), answering StorageFailed: \(error.message)")
            do {
                var restoredCoordinator = Coordinator(graph: navigator.coordinator.graph)
                _ = try Self.restore(
                    into: &restoredCoordinator, from: navigator.store, graph: navigator.coordinator.graph, logger: logger,
                    compact: false)
                navigator.coordinator = restoredCoordinator
            } catch {
                logger.critical("\(navigator.logPrefix)cannot re-read the state after a failed commit: \(error.message)")
            }
            navigator.pendingProperties.removeAll(keepingCapacity: true)
        }
        outgoing.removeAll(keepingCapacity: true)
        for call in batch {
            guard let error = failures[ObjectIdentifier(call.navigator)] else {
                if let reply = call.reply { outgoing.append(reply) }
                if let change = call.change { appendSignals(of: change, from: call.navigator) }
                continue
            }
            let failure = NavigatorErrorName.storageFailed.error(
                "the change could not be made durable, so nothing changed: \(error.message)")
            let before = call.navigator.coordinator
            currentChange = nil
            let reply = server.handle(call.call)
            let change = currentChange
            currentChange = nil
            if let change, !change.isNoOp {
                call.navigator.coordinator = before
                if !call.call.noReplyExpected { outgoing.append(.message(call.call.makeError(failure))) }
            } else if let reply {
                outgoing.append(.message(reply))
            }
        }
        for navigator in navigatorsInBatch where failures[ObjectIdentifier(navigator)] == nil {
            appendPropertiesChanged(navigator)
        }
        sendOutgoing()
    }

    private func shutDown() {
        while let message = connection.popMessage() { process(message) }
        if !pending.isEmpty { commitPending() }
        finishReloadsBeforeStopping()
        for navigator in [main] + apps.values.sorted(by: { $0.path.rawValue < $1.path.rawValue }) {
            close(navigator)
        }
        try? connection.releaseName(Navigator.busName)
        connection.flush()
        connection.close()
        logger.notice("navd stopped at revision \(coordinator.revision)")
    }

    /// Writes a last snapshot when the journal has rows, and closes the store.
    func close(_ navigator: ServedNavigator) {
        guard let store = navigator.store else { return }
        if store.journalLength > 0 { writeSnapshot(navigator) }
        store.close()
    }

    func writeSnapshot(_ navigator: ServedNavigator) {
        guard let store = navigator.store else { return }
        do {
            try store.writeSnapshot(
                revision: navigator.coordinator.revision, nextId: navigator.coordinator.state.nextIdNumber,
                document: navigator.coordinator.state.encodedSnapshot(), graph: nil)
        } catch {
            logger.warning("\(navigator.logPrefix)could not write a snapshot (the journal keeps every change, so nothing is lost): \(error.message)")
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
