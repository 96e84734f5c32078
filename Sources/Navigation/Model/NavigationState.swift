/// Everything that persists: the tree, revision, id counter, undo and redo lists, and history.
public struct NavigationState: Hashable, Sendable {
    /// The current tree.
    var tree: Tree
    /// The current revision (1 for a fresh tree).
    public internal(set) var revision: UInt64
    /// The next id to issue.
    var ids: IdCounter
    /// Trees before each undoable change, newest first.
    var undo: BoundedStack<Tree>
    /// Trees undone, newest first.
    var redo: BoundedStack<Tree>
    /// Committed changes, newest first, each with the state right after it (see KeptRevisions.swift).
    var history: BoundedStack<KeptChange>
    /// The state right before the oldest change `history` holds (nil when not known).
    var base: KeptRevision?
    /// The current value of every declared fact (not part of undo).
    var facts: [String: ParamValue] = [:]
    /// Which route graph the navigator answers under: 1 at first, one more at each reload that changes the
    /// graph (RecordingStartState.swift); the service keeps each generation's route file text.
    public internal(set) var graphGeneration: UInt64 = 1
    /// What Export needs of the change that made the base (nil when not known).
    var baseExport: KeptForExport?
    /// History steps a trim cut off, released a slice at a time after the calls are answered
    /// (`Coordinator.releaseTrimmedHistory`); not part of the state's value.
    var trimmedHistory = TrimmedCells<KeptChange>()
    /// The live lists at the last snapshot, for the next one's writer (KeptLists.swift); not part of the value.
    var listsMark = ListsMark()

    /// Equal when every field is, and the lists each kept step makes again (KeptLists.swift) are: a step's lists
    /// are its value whichever form it holds them in. Every stored field but `trimmedHistory` and `listsMark` is compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.tree == rhs.tree && lhs.revision == rhs.revision && lhs.ids == rhs.ids && lhs.undo == rhs.undo
            && lhs.redo == rhs.redo && lhs.history == rhs.history && lhs.base == rhs.base && lhs.facts == rhs.facts
            && lhs.graphGeneration == rhs.graphGeneration && lhs.baseExport == rhs.baseExport
            && lhs.baseExport?.lists.pair == rhs.baseExport?.lists.pair && lhs.listsOfSteps == rhs.listsOfSteps
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tree)
        hasher.combine(revision)
        hasher.combine(facts)
        hasher.combine(history.count)
    }

    /// The number the next issued id will carry.
    public var nextIdNumber: UInt64 { ids.next }

    init(tree: Tree, revision: UInt64, ids: IdCounter) {
        self.tree = tree
        self.revision = revision
        self.ids = ids
        self.undo = BoundedStack()
        self.redo = BoundedStack()
        self.history = BoundedStack()
    }
}

extension Tree {
    /// A fresh tree for `graph`: each tab (or the single stack) holds its root route; ids from `ids`.
    static func fresh(for graph: RouteGraph, ids: inout IdCounter) -> Tree {
        if graph.isTabbed {
            let tabs = graph.tabs.map { spec in
                let tabId = ids.issue()
                let root = Screen(id: ids.issue(), route: spec.rootRoute, params: [:])
                return TabStack(name: spec.name, id: tabId, layers: [StackFrame(style: .root, screens: [root])])
            }
            return Tree(isTabbed: true, tabs: tabs, selected: graph.startTabIndex)
        }
        let root = Screen(id: ids.issue(), route: graph.rootRoute ?? "", params: [:])
        return Tree(isTabbed: false, tabs: [TabStack(name: "", id: "", layers: [StackFrame(style: .root, screens: [root])])], selected: 0)
    }
}
