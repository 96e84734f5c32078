import DBus
import Navigation
import RouteFiles

/// One reload: the route files read on the loop's thread, parsed (on a thread of its own when
/// there is anything to parse), then applied on the loop's thread by `NavigatorDaemon.finish`.
///
/// A stopping daemon may abandon a reload whose parse has not finished (see
/// `finishReloadsBeforeStopping`): its thread then finishes on its own and wakes nothing.
final class ReloadJob: Sendable {
    /// A route file to parse: an app's (`app` its name) or the default navigator's (`app` nil;
    /// `file` nil for the embedded demo graph), with its bytes as read on the loop's thread or why
    /// they could not be read (the parse never opens the file again).
    struct Item: Sendable {
        let app: String?
        let file: String?
        let bytes: Result<[UInt8], RouteFileError>
        /// The graph its navigator served when the reload was planned (nil for an app that is new), that
        /// navigator and its `graphEpoch` then: the parse compares the new graph with it off the loop's thread.
        var inForce: RouteGraph? = nil
        var navigator: ObjectIdentifier? = nil
        var epoch = 0
    }

    /// The app reloaded alone; nil when reloading everything.
    nonisolated(unsafe) let target: ServedNavigator?
    /// Whether every file is reloaded (apps come and go).
    let everything: Bool
    /// The files to parse.
    let items: [Item]
    /// The apps whose files are gone (reloading everything).
    let removedApps: [String]
    /// The `Reload` calls to answer when it is applied.
    let calls: [Message]
    /// Whether SIGHUP asked for it (its outcome is logged).
    let fromSignal: Bool
    private let limitOverrides: [(Limits.Key, Int)]
    /// Run on the parsing thread before it parses (tests hold a parse up with it).
    private let beforeParsing: (@Sendable () -> Void)?
    /// The parse's results once it finished, and whether the loop gave up waiting for them.
    private let progress = PThreadMutex<(results: [Parsed]?, abandoned: Bool)>((nil, false))

    /// One item parsed: its graph (or why it did not load), and whether that graph equals the item's `inForce`.
    struct Parsed: Sendable {
        let graph: Result<RouteGraph, RouteFileError>
        let sameAsInForce: Bool
    }

    init(target: ServedNavigator?, everything: Bool, items: [Item], removedApps: [String], calls: [Message],
         fromSignal: Bool, limitOverrides: [(Limits.Key, Int)], beforeParsing: (@Sendable () -> Void)? = nil) {
        self.target = target
        self.everything = everything
        self.items = items
        self.removedApps = removedApps
        self.calls = calls
        self.fromSignal = fromSignal
        self.limitOverrides = limitOverrides
        self.beforeParsing = beforeParsing
    }

    /// Whether any file is to be parsed (else it is applied at once).
    var hasWork: Bool { items.contains { $0.file != nil } }

    /// Whether the parse has finished.
    var isParsed: Bool { progress.withLock { $0.results != nil } }

    /// The parsed graphs, one per item, in order (empty until parsed).
    var results: [Parsed] { progress.withLock { $0.results ?? [] } }

    /// Parses on a thread of its own, then wakes the loop through `waker` (unless the job was
    /// abandoned meanwhile); false if no thread could be started.
    func startParsing(waking waker: Waker) -> Bool {
        DetachedThread.start(named: "navd-reload") { [self] in
            beforeParsing?()
            let leftovers = ParseLeftovers()
            let results = parsedItems(leavingBehind: leftovers)
            progress.withLock { progress in
                progress.results = results
                // Under the lock: once `abandon()` returns, this thread never touches the waker,
                // whose eventfd closes with the loop's connection.
                if !progress.abandoned { waker.wake() }
            }
            // The YAML trees are freed while the loop applies the graphs, not before it can.
            leftovers.release()
        }
    }

    /// Parses every item on the calling thread.
    func parse() {
        let results = parsedItems()
        progress.withLock { $0.results = results }
    }

    /// The loop stops waiting: the parsing thread, when it finishes, wakes nothing.
    func abandon() {
        progress.withLock { $0.abandoned = true }
    }

    /// Every item's graph; touches nothing but the job, so it is safe on any thread.
    /// Comparing a 1,000-route graph with the one in force takes milliseconds, so it is done here too, not on the loop.
    private func parsedItems(leavingBehind leftovers: ParseLeftovers? = nil) -> [Parsed] {
        items.map { item in
            let graph = item.file.map {
                RouteFileLoading.graph(file: $0, bytes: item.bytes, limitOverrides: limitOverrides, leavingBehind: leftovers)
            }
                ?? .success(RouteFileLoading.withOverrides(RouteGraph.demo, limitOverrides))
            let same = if case .success(let parsed) = graph, let inForce = item.inForce { parsed == inForce } else { false }
            return Parsed(graph: graph, sameAsInForce: same)
        }
    }
}
