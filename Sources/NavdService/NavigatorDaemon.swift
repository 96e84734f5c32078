import CMalloc
import DBus
import Logging
import NavigatorProtocol
import Navigation

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
///
/// One job per file: this one the lifecycle and the loop; `+Calls` takes each call in; `+GroupCommit` commits and answers;
/// `+Methods` the handlers and the signals; `+Coordination` FlowFinished; `+Apps` the apps folder; `+Reload` reloading
/// route files; `+Restore` reading the state back.
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

    /// Calls that change a tree, applied in memory but not yet committed, in arrival order (`+GroupCommit`).
    var batch = Batch()
    /// The reload whose files are being parsed on a thread of their own, if any.
    var reloadInFlight: ReloadJob?
    /// Snapshots being encoded off the reply path, at most one per navigator (`+Snapshots`).
    var snapshotsInFlight: [SnapshotJob] = []
    /// Run on a snapshot's encoding thread before it encodes (tests hold an encoding up with it).
    var beforeEncodingSnapshot: (@Sendable () -> Void)?
    /// Reloads asked for while another was under way, in order.
    var queuedReloads: [QueuedReload] = []
    /// How long a stopping daemon waits for reloads to finish parsing before it abandons them, so
    /// that SIGTERM stops navd within 5 seconds whatever route file is being parsed.
    var reloadStopWaitMilliseconds = 3_000
    /// Run on a reload's parsing thread before it parses (tests hold a parse up with it).
    var beforeParsingReload: (@Sendable () -> Void)?
    /// What signal handlers and other threads ask of the loop: stop, reload every route file.
    let control: LoopControl
    /// The most calls held for one group commit: the loop commits when it has read this many, even with
    /// more waiting, so that a flood of changes is answered in batches of bounded size and latency.
    static let maxPendingCalls = 512
    /// Who each calling connection is, as the bus says (`+Access`).
    lazy var callers = CallerRegistry(connection: connection)
    /// When a refusal was last logged, per uid (`+Access`).
    var refusalLogTimes: [UInt32: Int64] = [:]
    /// For `--from-recording`: the recorded change the next change is to match (`+Replay`).
    let replay: ReplayCursor?

    /// Connects, takes the name and restores the state of the default navigator and of every app.
    /// Requests made through `control` meanwhile (a stop, a reload) are acted on when `run()`
    /// starts. Throws a `StartupError` that says what to do.
    public init(options: ServiceOptions, logger: Logger, control: LoopControl = LoopControl()) throws(StartupError) {
        self.options = options
        self.logger = logger
        self.control = control
        replay = options.replay.map(ReplayCursor.init)
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
        let restored: RestoredNavigator
        if let plan = options.replay {
            restored = Self.replayStart(plan, options: options)
        } else {
            restored = try Self.restoreDefault(from: store, options: options, logger: logger)
        }
        // What the store held was read whole and replayed: give its pages back to the system.
        releaseFreedMemory()
        main = ServedNavigator(
            app: nil, path: Navigator.objectPath, source: restored.source, coordinator: restored.coordinator, store: store,
            restored: restored.restored)
        loadGraphs(of: main)
        server.addObjectManager(at: Navigator.objectPath)
        server.addNode(Navigator.appsPath)
        export(main)
        loadApps()
    }

    /// Serves until `requestStop()` is called or the bus goes away. Returns the exit status.
    public func run() -> Int32 {
        control.attach(connection.waker)
        // This thread alone waits on the connection and closes it.
        connection.readThroughWatch()
        if control.isStopRequested {
            // SIGTERM or SIGINT during start-up: nothing was answered yet, so nothing can be lost.
            logger.notice("asked to stop during start-up; stopping before serving")
            shutDown()
            return 0
        }
        announceStart()
        let appsNote = apps.isEmpty ? "" : " and \(apps.count) app(s): \(apps.keys.sorted().joined(separator: ", "))"
        logger.notice("navd \(Navigator.version) serving \(Navigator.busName) on the \(Self.describe(options.bus)) at revision \(coordinator.revision)\(appsNote)\(main.store == nil ? " (ephemeral)" : "")")
        var status: Int32 = 0
        loop: while true {
            while let message = connection.popMessage() {
                process(message)
            }
            commitPending()
            if reloadInFlight != nil { finishParsedReload() }
            if !snapshotsInFlight.isEmpty { storeEncodedSnapshots() }
            if control.isStopRequested { break }
            if control.takeReloadRequest() { reloadOnSignal() }
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

    /// Asks the loop to stop after the calls in hand; safe from any thread.
    public func requestStop() {
        control.stopRequest.request()
    }

    /// A handle that stops this daemon's loop, usable from a signal handler (see `LoopControl`).
    public var stopRequest: LoopRequest { control.stopRequest }

    /// A handle that makes this daemon reload every route file (what `SIGHUP` does), usable from
    /// a signal handler.
    public var reloadRequest: LoopRequest { control.reloadRequest }

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

    private func shutDown() {
        while let message = connection.popMessage() { process(message) }
        commitPending()
        finishReloadsBeforeStopping()
        for navigator in [main] + apps.values.sorted(by: { $0.path.rawValue < $1.path.rawValue }) {
            close(navigator)
        }
        try? connection.releaseName(Navigator.busName)
        connection.flush()
        control.detach()
        connection.close()
        logger.notice("navd stopped at revision \(coordinator.revision)")
    }

    /// Writes a last snapshot when the journal has rows, and closes the store.
    func close(_ navigator: ServedNavigator) {
        abandonSnapshot(of: navigator)
        guard let store = navigator.store else { return }
        if store.journalLength > 0 { writeSnapshot(navigator) }
        store.close()
    }
}

/// Gives freed heap pages back to the system after a large, short-lived allocation such as a snapshot
/// document (glibc's `malloc_trim`, through the CMalloc shim; other C libraries do it on their own).
func releaseFreedMemory() { navd_release_freed_memory() }
