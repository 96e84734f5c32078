/// The navigation coordinator: the route graph and the state, changed only through `perform`.
///
/// A value type: copying it is cheap (copy-on-write), and `perform` is all-or-nothing and depends only
/// on the state, the operation and the time it is given.
public struct Coordinator: Sendable {
    /// The route graph every change is checked against (replaced only by `reload(_:at:)`).
    public internal(set) var graph: RouteGraph
    /// Everything that persists (see `NavigationState.encodedSnapshot()`).
    public internal(set) var state: NavigationState
    /// Lookups built once from the graph, so that resolving an event never scans it (rebuilt with the graph).
    var index: GraphIndex
    /// Whether some route has `requires` (else guard checks and repairs are skipped).
    var guardsInUse: Bool { !index.requires.isEmpty }

    /// A fresh tree: revision 1, each tab at its root, `selectedTabAtStart` (else the first tab) selected.
    public init(graph: RouteGraph) {
        var ids = IdCounter(next: 1)
        let tree = Tree.fresh(for: graph, ids: &ids)
        self.graph = graph
        self.state = NavigationState(tree: tree, revision: 1, ids: ids)
        self.state.facts = graph.defaultFacts
        self.state.base = KeptRevision(revision: 1, state: state.revisionState)
        self.index = GraphIndex(graph)
    }

    /// A coordinator over a restored state; call `reconcile(at:)` next if the graph may have changed.
    /// Facts the graph declares but the state lacks (or holds with another type) read as their defaults.
    public init(graph: RouteGraph, restoring state: NavigationState) {
        self.graph = graph
        self.state = state
        self.index = GraphIndex(graph)
        self.state.facts = reconciledFacts(state.facts)
    }

    /// Every fact's current value (the `Facts` property).
    public var facts: [String: ParamValue] { state.facts }

    /// The current revision.
    public var revision: UInt64 { state.revision }
    /// The selected tab's name ("" when untabbed).
    public var selectedTab: String { state.tree.isTabbed ? state.tree.current.name : "" }
    /// The tab names in order (empty when untabbed).
    public var tabs: [String] { state.tree.isTabbed ? state.tree.tabs.map(\.name) : [] }
    /// The visible path, bottom first.
    public var path: [Entry] { state.tree.path }
    /// The whole tree, pre-order.
    public var nodes: [Node] { state.tree.nodes }
    /// The number of screens on the path (the `Depth` property).
    public var depth: Int { state.tree.depth }
    /// The screen on top of the path.
    public var top: Entry {
        let frame = state.tree.current.layers[state.tree.current.layers.count - 1]
        let screen = frame.screens[frame.screens.count - 1]
        return Entry(id: screen.id, route: screen.route, presentation: frame.presentation(at: frame.screens.count - 1), params: screen.params)
    }
    /// The screen `Back` would leave on top (the `BackTarget` property); nil where `Back` answers `AtRoot`.
    public var backTarget: BackTarget? { state.tree.backTarget }
    /// Whether `Undo` would succeed.
    public var canUndo: Bool { !state.undo.isEmpty }
    /// Whether `Redo` would succeed.
    public var canRedo: Bool { !state.redo.isEmpty }
    /// The graph's named states and the links they stand for.
    public var namedStates: [String: String] { graph.states }

    /// The newest `limit` changes (at most `maxHistory`), newest first.
    public func history(limit: Int) -> [HistoryEntry] {
        state.history.newest(max(0, min(limit, graph.limits.maxHistory))).map(\.entry)
    }
}

/// The graph's handlers and guards by route, flow and tab, and its link patterns: what resolving an event,
/// checking guards and resolving `Open`'s target look up.
struct GraphIndex: Sendable {
    /// Each guarded route's `requires`.
    var requires: [String: [String]] = [:]
    /// Each route's handlers (routes without handlers are left out).
    var routeHandlers: [String: Handlers] = [:]
    /// Each flow's handlers.
    var flowHandlers: [String: Handlers] = [:]
    /// Each tab's handlers, by tab name.
    var tabHandlers: [String: Handlers] = [:]
    /// The link patterns, so that `Open` matches a link without trying each pattern in turn.
    var links = LinkIndex()

    init(_ graph: RouteGraph) {
        for (name, spec) in graph.routes {
            if !spec.requires.isEmpty { requires[name] = spec.requires }
            if !spec.on.isEmpty { routeHandlers[name] = spec.on }
        }
        for (name, spec) in graph.flows where !spec.on.isEmpty { flowHandlers[name] = spec.on }
        for tab in graph.tabs where !tab.on.isEmpty { tabHandlers[tab.name] = tab.on }
        links = LinkIndex(graph)
    }
}

/// The state a commit started from, as the changeable properties read it: what the properties a change touched
/// are compared against.
struct PropertiesBefore {
    /// The tree, whether Undo and Redo were possible, and every fact's value, before the change.
    var tree: Tree
    var canUndo, canRedo: Bool
    var facts: [String: ParamValue]

    /// `.revision`, and each other property whose value differs between `self` and `coordinator`'s state now. Read
    /// in place: two copies of the properties' values (the top screen's strings, the facts, the back target) were
    /// a few dozen references retained and released per commit.
    func changes(to coordinator: borrowing Coordinator) -> ChangedProperties {
        var changed: ChangedProperties = [.revision]
        if tree.depth != coordinator.state.tree.depth { changed.insert(.depth) }
        if tree.topScreen.route != coordinator.state.tree.topScreen.route { changed.insert(.top) }
        if tree.topScreen.id != coordinator.state.tree.topScreen.id { changed.insert(.topID) }
        if (tree.isTabbed ? tree.current.name : "") != coordinator.selectedTab { changed.insert(.selectedTab) }
        if canUndo != coordinator.canUndo { changed.insert(.canUndo) }
        if canRedo != coordinator.canRedo { changed.insert(.canRedo) }
        if facts != coordinator.state.facts { changed.insert(.facts) }
        if tree.backTarget != coordinator.state.tree.backTarget { changed.insert(.backTarget) }
        return changed
    }
}
