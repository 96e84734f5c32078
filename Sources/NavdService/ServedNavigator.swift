import DBus
import NavigatorProtocol
import Navigation

/// One navigator navd serves: the default one at `/org/navd/Navigator1` or an app's at
/// `/org/navd/Navigator1/apps/NAME`. Each has its own graph, state and store; the daemon's one
/// thread owns them all.
final class ServedNavigator {
    /// The app's name; nil for the default navigator.
    let app: String?
    /// The object it is served at.
    let path: ObjectPath
    /// The route file its graph was read from; nil for the embedded demo graph.
    var routeFile: String?
    /// The bytes of the route file as last loaded (an unchanged file is not parsed again).
    var routeFileBytes: [UInt8]?
    /// The record of the graph it serves (bytes, origin, command-line overrides), written with
    /// every snapshot: the journal rows after a snapshot are made under it, and start-up replays
    /// them under it whatever became of the route file meanwhile.
    var savedGraph: SavedGraph
    /// The graph and the state.
    var coordinator: Coordinator
    /// Counts the graphs put in force by a reload (`apply`): a reload parsed against the graph of one epoch
    /// knows whether its graph is new only while the navigator is still at that epoch.
    var graphEpoch = 0
    /// Where the state is kept; nil for an ephemeral navd.
    let store: StateStore?
    /// Whether the state came from disk (start-up cause `restore`) or is fresh (`start`).
    let restored: Bool
    /// The graph of each generation kept changes were answered under (Export), the current one included;
    /// stored in `store` too (NavigatorDaemon+Export.swift).
    var graphTexts: [UInt64: SavedGraph] = [:]
    /// Its `StackChanged` and `PropertiesChanged` with their headers marshalled (made when first sent).
    var signalTemplates: SignalTemplates?

    /// The signals sent on every change, their headers marshalled once.
    struct SignalTemplates {
        let stackChanged: SignalTemplate
        let propertiesChanged: SignalTemplate
    }

    init(app: String?, path: ObjectPath, source: GraphSource, coordinator: Coordinator, store: StateStore?, restored: Bool) {
        self.app = app
        self.path = path
        self.routeFile = source.routeFile
        self.routeFileBytes = source.bytes
        self.savedGraph = source.saved
        self.coordinator = coordinator
        // What replaying the journal trimmed off goes now, not with the first commit.
        self.coordinator.releaseTrimmedHistory(upTo: .max)
        self.store = store
        self.restored = restored
    }

    /// How logs name it: "the default navigator" or "app 'NAME'".
    var label: String { app.map { "app '\($0)'" } ?? "the default navigator" }

    /// A log line's prefix: empty for the default navigator, "app 'NAME': " for an app.
    var logPrefix: String { app.map { "app '\($0)': " } ?? "" }
}

/// Where a navigator's graph comes from: the graph itself, the route file and bytes it was read
/// from (nil for the embedded demo graph), and the record of both stored with its snapshots.
struct GraphSource {
    /// The graph, the command line's limits over it.
    var graph: RouteGraph
    /// The route file; nil for the embedded demo graph.
    var routeFile: String?
    /// The route file's bytes as read; nil for the embedded demo graph.
    var bytes: [UInt8]?
    /// The record stored with each snapshot.
    var saved: SavedGraph

    /// The graph read from `routeFile`'s `bytes` (both nil: the demo graph) with `overrides`.
    init(graph: RouteGraph, routeFile: String?, bytes: [UInt8]?, overrides: [(Limits.Key, Int)]) {
        self.graph = graph
        self.routeFile = routeFile
        self.bytes = bytes
        saved = RouteFileLoading.savedGraph(file: routeFile, bytes: bytes, overrides: overrides)
    }

    /// The graph read from `routeFile`'s `bytes`, recorded as `saved`.
    init(graph: RouteGraph, routeFile: String?, bytes: [UInt8]?, saved: SavedGraph) {
        self.graph = graph
        self.routeFile = routeFile
        self.bytes = bytes
        self.saved = saved
    }
}

/// A set of `NavigatorProperty`, one bit each: inserting and listing them costs no hashing.
struct PendingProperties {
    private var bits: UInt32 = 0

    /// Whether no property is in it.
    var isEmpty: Bool { bits == 0 }

    mutating func insert(_ property: NavigatorProperty) { bits |= 1 << Self.bit(property) }

    mutating func insert(_ changed: ChangedProperties) {
        for property in changed { insert(NavigatorProperty(property)) }
    }

    mutating func removeAll() { bits = 0 }

    /// Its properties in declaration order (the order `PropertiesChanged` lists them in).
    var members: [NavigatorProperty] { Self.all.filter { bits & (1 << Self.bit($0)) != 0 } }

    /// Calls `body` with each property in declaration order.
    func forEach(_ body: (NavigatorProperty) -> Void) {
        for property in Self.all where bits & (1 << Self.bit(property)) != 0 { body(property) }
    }

    private static let all = NavigatorProperty.allCases

    private static func bit(_ property: NavigatorProperty) -> UInt32 {
        switch property {
        case .revision: 0
        case .depth: 1
        case .top: 2
        case .topID: 3
        case .selectedTab: 4
        case .tabs: 5
        case .canUndo: 6
        case .canRedo: 7
        case .states: 8
        case .version: 9
        case .facts: 10
        case .access: 11
        case .backTarget: 12
        }
    }
}
