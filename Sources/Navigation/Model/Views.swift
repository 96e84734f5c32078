/// One screen on the visible path: the contract's Entry `(sssa{sv})`.
public struct Entry: Hashable, Sendable {
    /// The screen's id and its route.
    public var id, route: String
    /// `root`, `push`, or a layer root's style.
    public var presentation: Presentation
    /// Checked params.
    public var params: [String: ParamValue]

    /// An entry with the given fields.
    public init(id: String, route: String, presentation: Presentation, params: [String: ParamValue] = [:]) {
        self.id = id
        self.route = route
        self.presentation = presentation
        self.params = params
    }
}

/// The screen `Back` would leave on top: the contract's `BackTarget` `(sss)`, without params.
public struct BackTarget: Hashable, Sendable {
    /// The screen's id and its route.
    public var id, route: String
    /// How it is shown: `root`, `push`, or a layer root's style.
    public var presentation: Presentation

    /// A target with the given fields.
    public init(id: String, route: String, presentation: Presentation) {
        self.id = id
        self.route = route
        self.presentation = presentation
    }
}

/// One node of the whole tree: the contract's Node `(ssssa{sv})`.
public struct Node: Hashable, Sendable {
    /// The node's id, and its parent's ("" for a tab node, or an untabbed stack's root).
    public var id, parentID: String
    /// What the node is: a tab, or a screen and how it is shown.
    public var kind: NodeKind
    /// A tab's name or a screen's route.
    public var name: String
    /// A screen's params (empty for a tab).
    public var params: [String: ParamValue]

    /// A node with the given fields.
    public init(id: String, parentID: String, kind: NodeKind, name: String, params: [String: ParamValue] = [:]) {
        self.id = id
        self.parentID = parentID
        self.kind = kind
        self.name = name
        self.params = params
    }
}

/// The kind of a tree node: a tab, or a screen with its presentation.
public enum NodeKind: String, Hashable, Sendable, CaseIterable {
    /// A tab node (only in a tabbed tree).
    case tab
    /// A stack's root screen; a pushed screen; a sheet's or a cover's root screen.
    case root, push, sheet, cover

    /// The kind of a screen shown with `presentation`.
    public init(_ presentation: Presentation) {
        switch presentation {
        case .root: self = .root
        case .push: self = .push
        case .sheet: self = .sheet
        case .cover: self = .cover
        }
    }

    /// Whether the node is the root screen of a modal layer.
    public var isLayer: Bool { self == .sheet || self == .cover }
}

extension Tree {
    /// The visible path: the selected tab's stack, then each layer's stack, bottom first.
    var path: [Entry] {
        var entries: [Entry] = []
        for frame in current.layers {
            for (index, screen) in frame.screens.enumerated() {
                entries.append(Entry(id: screen.id, route: screen.route, presentation: frame.presentation(at: index), params: screen.params))
            }
        }
        return entries
    }

    /// Every node, pre-order: each tab node, then its stacks bottom to top.
    var nodes: [Node] {
        var nodes: [Node] = []
        for tab in tabs {
            var parent = ""
            if isTabbed {
                nodes.append(Node(id: tab.id, parentID: "", kind: .tab, name: tab.name))
                parent = tab.id
            }
            for frame in tab.layers {
                for (index, screen) in frame.screens.enumerated() {
                    let kind = index == 0 ? NodeKind(frame.style) : .push
                    nodes.append(Node(id: screen.id, parentID: parent, kind: kind, name: screen.route, params: screen.params))
                    parent = screen.id
                }
            }
        }
        return nodes
    }
}

extension Tree {
    /// The screen `Back` would leave on top, following `backStep`; nil where `Back` answers `AtRoot`.
    var backTarget: BackTarget? {
        let layers = current.layers
        let frame: StackFrame
        let index: Int
        switch backStep {
        case .pop:
            frame = layers[layers.count - 1]
            index = frame.screens.count - 2
        case .dismiss:
            frame = layers[layers.count - 2]
            index = frame.screens.count - 1
        case .atRoot:
            return nil
        }
        let screen = frame.screens[index]
        return BackTarget(id: screen.id, route: screen.route, presentation: frame.presentation(at: index))
    }
}
