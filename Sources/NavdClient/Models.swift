/// What the user sees: the revision, the selected tab and the path, bottom first (`GetState`).
public struct VisibleState: Hashable, Sendable {
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
    public var state: VisibleState

    /// The revision after the change.
    public var revision: UInt64 { state.revision }

    /// The cause of a state the client fetched itself with `GetState` rather than heard in a signal.
    public static let fetchedCause = "state"
}

/// The whole tree, every tab and layer, pre-order (`GetTree`).
public struct NavigationTree: Hashable, Sendable {
    /// The tree's revision.
    public var revision: UInt64
    /// The selected tab, `""` when not tabbed.
    public var tab: String
    /// Every node, a parent before its children.
    public var nodes: [Node]
}

extension StateAtRevision {
    /// The tree as it was at this revision, as `GetTree` returned it then.
    public var tree: NavigationTree { NavigationTree(revision: revision, tab: selectedTab, nodes: nodes) }
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
    /// Every declared fact and its current value.
    public var facts: Params = [:]
    /// Who may change and read the navigator: its route file's `access:` keys as written (`change`,
    /// `read`); empty without one.
    public var access: [String: [String]] = [:]
    /// The screen `Back` would leave on top; nil where `Back` would answer `AtRoot`.
    public var backTarget: BackTarget? = nil

    /// Makes an empty set of properties.
    public init() {}
}

/// Params keyed by name, as a route receives them.
public typealias Params = [String: ParamValue]
