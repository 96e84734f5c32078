import DBus
import Navigation
import RouteFiles
import Synchronization

/// One reload: the route files read on the loop's thread, parsed (on a thread of its own when
/// there is anything to parse), then applied on the loop's thread by `NavigatorDaemon.finish`.
final class ReloadJob: Sendable {
    /// A route file to parse: an app's (`app` its name) or the default navigator's (`app` nil;
    /// `file` nil for the embedded demo graph), with its bytes as read on the loop's thread or why
    /// they could not be read (the parse never opens the file again).
    struct Item: Sendable {
        let app: String?
        let file: String?
        let bytes: Result<[UInt8], RouteFileError>
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
    private let parsed = Mutex<[Result<RouteGraph, RouteFileError>]?>(nil)

    init(target: ServedNavigator?, everything: Bool, items: [Item], removedApps: [String], calls: [Message],
         fromSignal: Bool, limitOverrides: [(Limits.Key, Int)]) {
        self.target = target
        self.everything = everything
        self.items = items
        self.removedApps = removedApps
        self.calls = calls
        self.fromSignal = fromSignal
        self.limitOverrides = limitOverrides
    }

    /// Whether any file is to be parsed (else it is applied at once).
    var hasWork: Bool { items.contains { $0.file != nil } }

    /// Whether `parse()` has finished.
    var isParsed: Bool { parsed.withLock { $0 != nil } }

    /// The parsed graphs, one per item, in order (empty until parsed).
    var results: [Result<RouteGraph, RouteFileError>] { parsed.withLock { $0 ?? [] } }

    /// Parses every item; safe on any thread (it touches nothing but the job).
    func parse() {
        let results = items.map { item in
            guard let file = item.file else {
                return Result<RouteGraph, RouteFileError>.success(RouteFileLoading.withOverrides(RouteGraph.demo, limitOverrides))
            }
            return RouteFileLoading.graph(file: file, bytes: item.bytes, limitOverrides: limitOverrides)
        }
        parsed.withLock { $0 = results }
    }
}
