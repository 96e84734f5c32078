/// One screen on the visible path: the contract's Entry `(sssa{sv})`.
public struct Entry: Hashable, Sendable {
    /// The screen's opaque, never reused id.
    public var id: String
    /// The route name from the route graph.
    public var route: String
    /// `root`, `push`, `sheet` or `cover` (a layer's root screen has its layer's style).
    public var presentation: String
    /// The screen's params, typed as the route declares them.
    public var params: Params

    /// Makes an entry from its four fields.
    public init(id: String, route: String, presentation: String, params: Params = [:]) {
        self.id = id
        self.route = route
        self.presentation = presentation
        self.params = params
    }
}

/// What the user sees: the revision, the selected tab and the path, bottom first (`GetState`).
public struct NavigationState: Hashable, Sendable {
    /// The tree's revision; every change adds exactly one.
    public var revision: UInt64
    /// The selected tab, `""` when the app is not tabbed.
    public var tab: String
    /// The visible path, bottom first; its last entry is the screen on top.
    public var path: [Entry]

    /// Makes a state from its fields.
    public init(revision: UInt64, tab: String, path: [Entry]) {
        self.revision = revision
        self.tab = tab
        self.path = path
    }

    /// The screen on top, nil only for an empty path (which navd never sends).
    public var top: Entry? { path.last }
}

/// One `StackChanged` signal: a state and the cause of the change.
public struct StateChange: Hashable, Sendable {
    /// The lower-case method name that made the change (`push`, `apply`, `undo`, …),
    /// `start` or `restore` for navd's start-up signal, or `state` for a state the client fetched itself.
    public var cause: String
    /// The state after the change.
    public var state: NavigationState

    /// Makes a change from a cause and the state it produced.
    public init(cause: String, state: NavigationState) {
        self.cause = cause
        self.state = state
    }

    /// The revision after the change.
    public var revision: UInt64 { state.revision }
}

/// One node of the whole tree: the contract's Node `(ssssa{sv})`.
public struct Node: Hashable, Sendable {
    /// The node's id (tab nodes have ids too).
    public var id: String
    /// The parent node's id, `""` for a tab node or an untabbed root screen.
    public var parentID: String
    /// `tab`, `root`, `push`, `sheet` or `cover`.
    public var kind: String
    /// The tab's name for a tab node, the route for a screen.
    public var name: String
    /// The screen's params (empty for a tab).
    public var params: Params

    /// Makes a node from its five fields.
    public init(id: String, parentID: String, kind: String, name: String, params: Params = [:]) {
        self.id = id
        self.parentID = parentID
        self.kind = kind
        self.name = name
        self.params = params
    }
}

/// The whole tree, every tab and layer, pre-order (`GetTree`).
public struct NavigationTree: Hashable, Sendable {
    /// The tree's revision.
    public var revision: UInt64
    /// The selected tab, `""` when not tabbed.
    public var tab: String
    /// Every node, a parent before its children.
    public var nodes: [Node]

    /// Makes a tree from its fields.
    public init(revision: UInt64, tab: String, nodes: [Node]) {
        self.revision = revision
        self.tab = tab
        self.nodes = nodes
    }
}

/// One route of the graph (`GetRoutes`).
public struct RouteInfo: Hashable, Sendable {
    /// The route's name.
    public var name: String
    /// Its human title, when it declares one.
    public var title: String?
    /// Declared params: name to type name (`string`, `int`, `bool`, `double`).
    public var params: [String: String]
    /// The names of the required params.
    public var required: [String]
    /// How it may be shown: `push`, `sheet`, `cover`.
    public var presentations: [String]
    /// Its deep-link pattern, such as `/news/{id}`, when it declares one.
    public var link: String?
    /// Every other key (display hints such as `color` and `index`).
    public var hints: Params

    /// Makes a route description.
    public init(name: String, title: String? = nil, params: [String: String] = [:], required: [String] = [],
                presentations: [String] = [], link: String? = nil, hints: Params = [:]) {
        self.name = name
        self.title = title
        self.params = params
        self.required = required
        self.presentations = presentations
        self.link = link
        self.hints = hints
    }

    /// The `color` display hint, when the route has one.
    public var color: String? {
        if case .string(let value)? = hints["color"] { return value }
        return nil
    }
}

/// One change in the history (`History`): `(tsx)`.
public struct HistoryItem: Hashable, Sendable {
    /// The revision the change produced.
    public var revision: UInt64
    /// The change's cause (lower-case method name).
    public var cause: String
    /// When it was made, in microseconds since the Unix epoch.
    public var timeMicroseconds: Int64

    /// Makes a history item.
    public init(revision: UInt64, cause: String, timeMicroseconds: Int64) {
        self.revision = revision
        self.cause = cause
        self.timeMicroseconds = timeMicroseconds
    }
}

/// The id a method gave the screen it added, with the revision it produced (`Push`, `Replace`, `Present`).
public struct AddedScreen: Hashable, Sendable {
    /// The new revision.
    public var revision: UInt64
    /// The new screen's id.
    public var id: String
}

/// A screen to build, for `SetStack` and the `screens` argument of an Apply op: `(sa{sv})`.
public struct ScreenSpec: Hashable, Sendable {
    /// The route name.
    public var route: String
    /// Its params.
    public var params: Params

    /// Makes a screen description.
    public init(route: String, params: Params = [:]) {
        self.route = route
        self.params = params
    }
}

/// The style of a modal layer.
public enum ModalStyle: String, Hashable, Sendable, CaseIterable {
    /// A sheet: drawn smaller, over the screen below.
    case sheet
    /// A cover: fills the screen.
    case cover
}

/// navd's read-only properties (`org.freedesktop.DBus.Properties.GetAll`).
public struct NavigatorProperties: Hashable, Sendable {
    /// Current revision.
    public var revision: UInt64 = 0
    /// Number of entries on the path.
    public var depth: UInt32 = 0
    /// Route of the screen on top.
    public var top: String = ""
    /// Id of the screen on top.
    public var topID: String = ""
    /// Selected tab, `""` when not tabbed.
    public var selectedTab: String = ""
    /// Tab names in order, empty when not tabbed.
    public var tabs: [String] = []
    /// Whether an Undo would succeed.
    public var canUndo: Bool = false
    /// Whether a Redo would succeed.
    public var canRedo: Bool = false
    /// Named states and the links they stand for.
    public var states: [String: String] = [:]
    /// navd's version.
    public var version: String = ""

    /// Makes an empty set of properties.
    public init() {}
}
