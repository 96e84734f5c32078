/// One screen: a stable id, a route and checked params.
struct Screen: Hashable, Sendable {
    var id: String
    var route: String
    var params: [String: ParamValue]
}

/// One stack: the base stack of a tab (style `root`) or a modal layer (`sheet`/`cover`).
struct StackFrame: Hashable, Sendable {
    /// `.root` for a tab's base stack, else the layer's style.
    var style: Presentation
    /// Bottom first; never empty.
    var screens: [Screen]

    /// How the screen at `index` is shown: the stack's style for its root, `push` above it.
    func presentation(at index: Int) -> Presentation { index == 0 ? style : .push }
}

/// A tab's content: its base stack and the chain of layers above it.
///
/// Only a stack's top screen can present, so the layers form a chain: layer i+1 was presented by the
/// top screen of layer i. Each stack is its own array, so a change copies only the stack it touches.
struct TabStack: Hashable, Sendable {
    /// The tab's name ("" when untabbed).
    var name: String
    /// The tab node's id ("" when untabbed: there is no tab node).
    var id: String
    /// `layers[0]` is the base stack; never empty.
    var layers: [StackFrame]
}

/// The navigation tree: one stack or a set of tabs, and which is selected.
struct Tree: Hashable, Sendable {
    var isTabbed: Bool
    var tabs: [TabStack]
    var selected: Int
    /// The flow instances, by the id of their first screen: they belong to it, so undo brings them back.
    var flows: [String: FlowInstance] = [:]

    /// The selected tab's content, read in place (a getter handed out a copy: a name, an id and a stacks array
    /// retained and released, at each of the many places that read the top screen or the path).
    var current: TabStack {
        _read { yield tabs[selected] }
        _modify { yield &tabs[selected] }
    }

    /// The number of screens on the path.
    var depth: Int { current.layers.reduce(0) { $0 + $1.screens.count } }

    /// The screen on top of the path.
    var topScreen: Screen {
        _read {
            let layers = tabs[selected].layers.count
            yield tabs[selected].layers[layers - 1].screens[tabs[selected].layers[layers - 1].screens.count - 1]
        }
    }

    /// What `Back` does now: the one rule that `Back` follows and `BackTarget` previews.
    var backStep: BackStep {
        let layers = current.layers
        if layers[layers.count - 1].screens.count > 1 { return .pop }
        return layers.count > 1 ? .dismiss : .atRoot
    }
}

/// What `Back` does to the selected tab: pops the top stack's top screen; else closes the top layer,
/// which holds only its root; else, at the base stack's root with no layer open, nothing (`AtRoot`).
enum BackStep: Hashable, Sendable {
    case pop, dismiss, atRoot
}

/// Issues screen and tab ids from the persisted counter: "#1", "#2", … (route names cannot hold '#').
struct IdCounter: Hashable, Sendable {
    var next: UInt64

    mutating func issue() -> String {
        defer { next += 1 }
        return "#\(next)"
    }
}
