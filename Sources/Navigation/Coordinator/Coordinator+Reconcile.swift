// Fitting the state to the route graph: at start-up (a restored state, a graph that may have changed), on a
// live reload (a new graph), and for every tree Undo and Redo bring back.

/// What `reconcile(at:)` or `reload(_:at:)` did: the warnings to log, the change, if the state had to change,
/// and the properties to announce.
public struct Reconciliation: Sendable {
    /// One sentence per repair ("tab 'news': removed screen 'news-item' (#12) …").
    public let warnings: [String]
    /// The "reconcile" change, or nil when the tree and the facts already fit the graph.
    public let change: Change?
    /// Every published value that differs from before: with a change, its `changedProperties` (which include
    /// `.tabs` when the tab names changed); `.states` when the graph's named states changed, with or without a
    /// change; `.canUndo` / `.canRedo` when a smaller undo limit emptied a list without a change.
    public let changedProperties: ChangedProperties
}

extension Coordinator {
    /// Fits a restored state to the current graph as one "reconcile" revision at `time` (µs), clearing undo and
    /// redo if anything changed (see `reload(_:at:)` for the rules); no revision when everything already fits.
    public mutating func reconcile(at time: Int64) -> Reconciliation {
        reconcile(at: time, statesBefore: graph.states)
    }

    /// Replaces the route graph with `graph` (a reloaded route file) and fits the state to it, at `time` (µs).
    ///
    /// A screen whose route is gone, whose params no longer fit its route's declaration, whose presentation its
    /// route no longer allows, or whose route requires a fact that is not true goes with everything above it in
    /// its stack and the layers presented from those; a stack root that goes becomes a fresh screen of its tab's
    /// root route; a tab that is gone is dropped (the selection moves to the first tab), a new tab starts at its
    /// root, and a switch between tabbed and untabbed starts a fresh tree (ids keep counting). Facts no longer
    /// declared are dropped; new facts, and facts whose type changed, take their defaults. Flow instances whose
    /// flow is no longer declared, or whose first screen went, are abandoned (in the change's `endedFlows` with
    /// output ""). When the tree or the facts changed, that is one revision with cause "reconcile", and undo and
    /// redo are cleared; otherwise there is no change, although the graph is replaced (and the undo and redo
    /// lists are trimmed to a smaller `maxUndo`). Everything afterwards, Undo and Redo included, uses `graph`.
    public mutating func reload(_ graph: RouteGraph, at time: Int64) -> Reconciliation {
        let statesBefore = self.graph.states
        if graph != self.graph { state.graphGeneration += 1 }
        self.graph = graph
        self.index = GraphIndex(graph)
        return reconcile(at: time, statesBefore: statesBefore)
    }

    /// The shared body of `reconcile(at:)` and `reload(_:at:)`.
    mutating func reconcile(at time: Int64, statesBefore: [String: String]) -> Reconciliation {
        var warnings: [String] = []
        let txn = reconciliation(warnings: &warnings)
        var change: Change?
        var properties: ChangedProperties
        if txn.tree != state.tree || txn.facts != state.facts {
            let committed = commitReconciliation(txn, time: time)
            properties = committed.changedProperties
            change = committed
        } else {
            warnings = []
            properties = trimUndoToLimits()
        }
        trimHistoryToLimits()
        if graph.states != statesBefore { properties.insert(.states) }
        return Reconciliation(warnings: warnings, change: change, changedProperties: properties)
    }

    /// What the graph would repair in the state, one sentence each (`reload(_:at:)`'s rules); empty when the tree
    /// and the facts already fit the graph. Changes nothing.
    public var misfits: [String] {
        var warnings: [String] = []
        let txn = reconciliation(warnings: &warnings)
        guard txn.tree != state.tree || txn.facts != state.facts else { return [] }
        return warnings.isEmpty ? ["the tree or the facts do not fit the route graph"] : warnings
    }

    /// The state fitted to the graph, as an uncommitted "reconcile" transaction; `warnings` says what was repaired.
    func reconciliation(warnings: inout [String]) -> Transaction {
        var txn = Transaction(state)
        var factWarnings: [String] = []
        txn.facts = reconciledFacts(state.facts, warnings: &factWarnings)
        txn.tree = fitted(state.tree, facts: txn.facts, ids: &txn.ids, warnings: &warnings, abandoned: &txn.droppedFlows)
        txn.removedScreens = true
        warnings += factWarnings
        return txn
    }

    /// Commits a reconciliation (a no-op change when nothing differs), adding `.tabs` when the tab names changed.
    mutating func commitReconciliation(_ txn: Transaction, time: Int64) -> Change {
        let tabsBefore = tabs
        var change = commit(txn, op: .reconcile, time: time, effect: .clear)
        if !change.isNoOp && tabs != tabsBefore { change.changedProperties.insert(.tabs) }
        return change
    }

    /// Keeps the undo and redo lists within the graph's `maxUndo` (as pushes do); returns `.canUndo` / `.canRedo`
    /// if that emptied one.
    mutating func trimUndoToLimits() -> ChangedProperties {
        let keep = graph.limits.maxUndo
        var changed: ChangedProperties = []
        if state.undo.count - keep > keep {
            state.undo = BoundedStack(newestFirst: state.undo.newest(keep))
            if state.undo.isEmpty { changed.insert(.canUndo) }
        }
        if state.redo.count - keep > keep {
            state.redo = BoundedStack(newestFirst: state.redo.newest(keep))
            if state.redo.isEmpty { changed.insert(.canRedo) }
        }
        return changed
    }

    /// Keeps the history within the graph's `maxHistory` (as pushes do).
    mutating func trimHistoryToLimits() {
        state.trimHistory(keep: max(1, graph.limits.maxHistory))
    }

    /// `tree` fitted to the graph and to `facts` (see `reload(_:at:)`); `warnings` says what was repaired, and
    /// `abandoned` receives the instances dropped because their flow is no longer declared, although their first
    /// screen stays (instances whose first screen went are only dropped from the tree). The stacks `tree` shares
    /// with `fitting`, a tree known to fit (the current one, for Undo and Redo), are not checked again: an undo
    /// step costs what it changed, not the size of the tree.
    func fitted(
        _ tree: Tree, facts: [String: ParamValue], ids: inout IdCounter, warnings: inout [String], abandoned: inout [FlowInstance],
        fitting: Tree? = nil
    ) -> Tree {
        var result = fittedStacks(tree, facts: facts, ids: &ids, warnings: &warnings, fitting: fitting)
        if !tree.flows.isEmpty { _ = result.pruneFlows(comparedTo: tree) }
        for instance in result.orderedFlows where graph.flows[instance.flow] == nil {
            result.flows[instance.firstScreen] = nil
            abandoned.append(instance)
            warnings.append("flow '\(instance.flow)' (\(instance.id)) is no longer in the route graph; its screens stay, it no longer encloses them")
        }
        return result
    }

    /// `tree`'s tabs and stacks fitted to the graph and to `facts` (flow instances are left as they are).
    func fittedStacks(_ tree: Tree, facts: [String: ParamValue], ids: inout IdCounter, warnings: inout [String], fitting: Tree?) -> Tree {
        /// The layers of tab `name` in `fitting`, if that has the same shape.
        func known(_ name: String) -> [StackFrame]? {
            guard let fitting, fitting.isTabbed == tree.isTabbed else { return nil }
            return fitting.tabs.first { $0.name == name }?.layers
        }
        if tree.isTabbed != graph.isTabbed {
            warnings.append(graph.isTabbed
                ? "the route graph has tabs now but the tree was a single stack; starting from a fresh tree"
                : "the route graph is a single stack now but the tree had tabs; starting from a fresh tree")
            return Tree.fresh(for: graph, ids: &ids)
        }
        guard graph.isTabbed else {
            var result = tree
            repair(&result.tabs[0], root: graph.rootRoute ?? "", label: "the stack", facts: facts, ids: &ids, warnings: &warnings, known: known(""))
            return result
        }
        if tree.tabs.count == graph.tabs.count && zip(tree.tabs, graph.tabs).allSatisfy({ $0.name == $1.name }) {
            var result = tree
            for index in result.tabs.indices {
                let name = graph.tabs[index].name
                repair(&result.tabs[index], root: graph.tabs[index].rootRoute, label: "tab '\(name)'", facts: facts, ids: &ids, warnings: &warnings, known: known(name))
            }
            return result
        }
        var tabs: [TabStack] = []
        for spec in graph.tabs {
            if var tab = tree.tabs.first(where: { $0.name == spec.name }) {
                repair(&tab, root: spec.rootRoute, label: "tab '\(spec.name)'", facts: facts, ids: &ids, warnings: &warnings, known: known(spec.name))
                tabs.append(tab)
            } else {
                let tabId = ids.issue()
                let root = Screen(id: ids.issue(), route: spec.rootRoute, params: [:])
                tabs.append(TabStack(name: spec.name, id: tabId, layers: [StackFrame(style: .root, screens: [root])]))
                warnings.append("tab '\(spec.name)' is new in the route graph; it starts at its root '\(spec.rootRoute)'")
            }
        }
        for tab in tree.tabs where graph.tabIndex(named: tab.name) == nil {
            warnings.append("tab '\(tab.name)' is no longer in the route graph; dropped it and its screens")
        }
        let selectedName = tree.tabs[tree.selected].name
        let selected = tabs.firstIndex { $0.name == selectedName } ?? 0
        if tabs[selected].name != selectedName {
            warnings.append("the selected tab '\(selectedName)' is gone; selected '\(tabs[selected].name)'")
        }
        return Tree(isTabbed: true, tabs: tabs, selected: selected, flows: tree.flows)
    }

    /// Cuts `tab` at its first screen that does not fit (see `misfit`), with everything above it; a base stack's
    /// root gives way to a fresh screen of `root`. Layers equal to those at the same place in `known` (layers
    /// known to fit) are passed over.
    func repair(
        _ tab: inout TabStack, root: String, label: String, facts: [String: ParamValue], ids: inout IdCounter, warnings: inout [String],
        known: [StackFrame]? = nil
    ) {
        for layerIndex in tab.layers.indices {
            let frame = tab.layers[layerIndex]
            if let known, layerIndex < known.count, known[layerIndex] == frame { continue }
            var found: (index: Int, reason: String)?
            for (index, screen) in frame.screens.enumerated() {
                if let reason = misfit(screen, as: index == 0 ? frame.style : .push, facts: facts) {
                    found = (index, reason)
                    break
                }
            }
            guard let (cut, reason) = found else { continue }
            let gone = frame.screens[cut]
            let above = frame.screens.count - cut - 1 + tab.layers[(layerIndex + 1)...].reduce(0) { $0 + $1.screens.count }
            var message = "\(label): removed screen '\(gone.route)' (\(gone.id)), \(reason)"
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

    /// Why `screen`, shown as `presentation`, no longer fits the graph and `facts` (a clause for a warning),
    /// or nil when it fits: its route is gone, its params are not what checking them against the route's
    /// declaration would store, its route does not allow `presentation`, or its route requires a fact that is
    /// not true.
    func misfit(_ screen: Screen, as presentation: Presentation, facts: [String: ParamValue]) -> String? {
        guard let spec = graph.routes[screen.route] else { return "whose route is no longer in the route graph" }
        if !screen.params.isEmpty || !spec.required.isEmpty {
            do {
                let checked = try graph.checkParams(screen.params.mapValues(\.input), for: spec)
                if checked != screen.params {
                    let changed = checked.keys.sorted().filter { checked[$0]?.type != screen.params[$0]?.type }
                    return "whose params no longer fit route '\(screen.route)' (param '\(changed.first ?? "")' is \(spec.params[changed.first ?? ""]?.rawValue ?? "") now)"
                }
            } catch {
                return "whose params no longer fit route '\(screen.route)' (\(error.message))"
            }
        }
        if presentation != .root && !spec.presentations.contains(presentation) {
            return "which route '\(screen.route)' no longer allows as \(presentation.rawValue)"
        }
        if guardsInUse, let requires = index.requires[screen.route], let fact = requires.first(where: { facts[$0] != .bool(true) }) {
            return "whose route requires fact '\(fact)', which is not true"
        }
        return nil
    }

    /// Restored or previous facts fitted to the graph: each declared fact, defaulted when missing or of another
    /// type now; `warnings` says what was dropped, added or reset.
    func reconciledFacts(_ facts: [String: ParamValue], warnings: inout [String]) -> [String: ParamValue] {
        let result = reconciledFacts(facts)
        for name in facts.keys.sorted() where graph.facts[name] == nil {
            warnings.append("fact '\(name)' is no longer in the route graph; dropped it")
        }
        for name in graph.factOrder {
            guard let spec = graph.facts[name] else { continue }
            if let old = facts[name] {
                if old.type != spec.type {
                    warnings.append("fact '\(name)' is \(spec.type.rawValue) now (it was \(old.type.rawValue)); it is back at its default \(Self.describe(spec.defaultValue))")
                }
            } else {
                warnings.append("fact '\(name)' is new in the route graph; it starts at its default \(Self.describe(spec.defaultValue))")
            }
        }
        return result
    }
}
