import DBus
import Navigation
import RouteFiles
import Synchronization

/// One reload: the route files read on the loop's thread, parsed (on a thread of its own when
/// there is anything to parse), then applied on the loop's thread by `NavigatorDaemon.finish`.
final class ReloadJob: Sendable {
    /// A route file to parse: an app's (`app` its name) or the default navigator's (`app` nil;
    /// `file` nil for the embedded demo graph).
    struct Item: Sendable {
        let app: String?
        let file: String?
        let bytes: [UInt8]?
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
                return Result<RouteGraph, RouteFileError>.success(Self.withOverrides(RouteGraph.demo, limitOverrides))
            }
            return Self.graph(file: file, bytes: item.bytes, limitOverrides: limitOverrides)
        }
        parsed.withLock { $0 = results }
    }

    /// The graph in `file`, whose `bytes` were read (nil: unreadable, and the loader says why in
    /// its own words), with the command line's limits over it.
    static func graph(file: String, bytes: [UInt8]?, limitOverrides: [(Limits.Key, Int)]) -> Result<RouteGraph, RouteFileError> {
        do throws(RouteFileError) {
            let graph: RouteGraph
            if let bytes {
                graph = try RouteGraph.load(yaml: String(decoding: bytes, as: UTF8.self), file: file)
            } else {
                graph = try RouteGraph.load(path: file)
            }
            return .success(withOverrides(graph, limitOverrides))
        } catch {
            return .failure(error)
        }
    }

    /// `graph` with the command line's limits over its own.
    static func withOverrides(_ graph: RouteGraph, _ limitOverrides: [(Limits.Key, Int)]) -> RouteGraph {
        var graph = graph
        for (key, value) in limitOverrides { graph.limits[key] = value }
        return graph
    }
}
