/// What `reconcile(at:)` did: the warnings to log and the change, if the tree had to change.
public struct Reconciliation: Sendable {
    /// One sentence per repair ("tab 'news': removed screen 'news-item' (#12) …").
    public let warnings: [String]
    /// The "reconcile" change, or nil when the tree already fit the graph.
    public let change: Change?
}

extension Coordinator {
    /// Fits a restored tree to the current graph as one "reconcile" revision at `time` (µs), clearing undo
    /// and redo if anything changed: screens whose route is gone go with everything above them, a stack root
    /// whose route is gone becomes the tab's root route, vanished tabs are dropped, new tabs start at their
    /// root, and a tabbed/untabbed mismatch starts a fresh tree (ids keep counting).
    public mutating func reconcile(at time: Int64) -> Reconciliation {
        var txn = Transaction(state)
        var warnings: [String] = []
        txn.tree = reconciledTree(ids: &txn.ids, warnings: &warnings)
        dropFlowsOutsideTheGraph(&txn.tree, warnings: &warnings)
        txn.facts = reconciledFacts(state.facts)
        txn.tree = repaired(txn.tree, facts: txn.facts, ids: &txn.ids)
        txn.removedScreens = true
        if txn.tree == state.tree && txn.facts == state.facts { return Reconciliation(warnings: [], change: nil) }
        let change = commit(txn, op: .reconcile, time: time, effect: .clear)
        return Reconciliation(warnings: warnings, change: change)
    }

    /// Drops the flow instances whose flow the graph no longer declares (their screens stay).
    func dropFlowsOutsideTheGraph(_ tree: inout Tree, warnings: inout [String]) {
        for instance in tree.orderedFlows where graph.flows[instance.flow] == nil {
            tree.flows[instance.firstScreen] = nil
            warnings.append("flow '\(instance.flow)' (\(instance.id)) is no longer in the route graph; its screens stay, it no longer encloses them")
        }
    }

    /// The current tree fitted to the graph; `warnings` says what was repaired.
    func reconciledTree(ids: inout IdCounter, warnings: inout [String]) -> Tree {
        let old = state.tree
        if old.isTabbed != graph.isTabbed {
            warnings.append(graph.isTabbed
                ? "the route graph has tabs now but the saved tree was a single stack; starting from a fresh tree"
                : "the route graph is a single stack now but the saved tree had tabs; starting from a fresh tree")
            return Tree.fresh(for: graph, ids: &ids)
        }
        guard graph.isTabbed else {
            var tab = old.tabs[0]
            repair(&tab, root: graph.rootRoute ?? "", label: "the stack", ids: &ids, warnings: &warnings)
            return Tree(isTabbed: false, tabs: [tab], selected: 0, flows: old.flows)
        }
        var tabs: [TabStack] = []
        for spec in graph.tabs {
            if var tab = old.tabs.first(where: { $0.name == spec.name }) {
                repair(&tab, root: spec.rootRoute, label: "tab '\(spec.name)'", ids: &ids, warnings: &warnings)
                tabs.append(tab)
            } else {
                let tabId = ids.issue()
                let root = Screen(id: ids.issue(), route: spec.rootRoute, params: [:])
                tabs.append(TabStack(name: spec.name, id: tabId, layers: [StackFrame(style: .root, screens: [root])]))
                warnings.append("tab '\(spec.name)' is new in the route graph; it starts at its root '\(spec.rootRoute)'")
            }
        }
        for tab in old.tabs where graph.tabIndex(named: tab.name) == nil {
            warnings.append("tab '\(tab.name)' is no longer in the route graph; dropped it and its screens")
        }
        let selectedName = old.tabs[old.selected].name
        let selected = tabs.firstIndex { $0.name == selectedName } ?? 0
        if tabs[selected].name != selectedName {
            warnings.append("the selected tab '\(selectedName)' is gone; selected '\(tabs[selected].name)'")
        }
        return Tree(isTabbed: true, tabs: tabs, selected: selected, flows: old.flows)
    }

    /// Cuts `tab` at its first screen whose route is gone (with everything above it).
    func repair(_ tab: inout TabStack, root: String, label: String, ids: inout IdCounter, warnings: inout [String]) {
        for layerIndex in tab.layers.indices {
            let screens = tab.layers[layerIndex].screens
            guard let cut = screens.firstIndex(where: { graph.routes[$0.route] == nil }) else { continue }
            let gone = screens[cut]
            let above = screens.count - cut - 1 + tab.layers[(layerIndex + 1)...].reduce(0) { $0 + $1.screens.count }
            var message = "\(label): removed screen '\(gone.route)' (\(gone.id)), whose route is no longer in the route graph"
            if above > 0 { message += ", and the \(above) screen(s) above it" }
            tab.layers.removeSubrange((layerIndex + 1)...)
            if cut > 0 {
                tab.layers[layerIndex].screens.removeSubrange(cut...)
            } else if layerIndex > 0 {
                tab.layers.removeLast()
            } else {
                tab.layers[0].screens = [Screen(id: ids.issue(), route: root, params: [:])]
                message += "; its root is now '\(root)'"
            }
            warnings.append(message)
            return
        }
    }
}
