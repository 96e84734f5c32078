// What a recording needs of the kept changes (docs/devtools.md, "Recordings"): per kept change the id counter
// before it, the graph it was answered under and the undo and redo lists right after it, and the start state
// (the whole navigator right after a kept revision), as a `NavigationState` whose snapshot document a
// recording carries and a replaying navd starts from (`NavigationState.decodeSnapshot`, then
// `Coordinator(graph:restoring:)`).

/// What a kept change keeps for Export beyond its state: the id counter and graph, and what it did to the undo
/// and redo lists (KeptLists.swift), from which its lists are made again when a recording or a snapshot needs
/// them. A step holds no list of its own: lists held per step kept every tree of the last `max-undo` changes
/// alive for `max-history` steps more (docs/performance.md, "CPU per change").
struct KeptForExport: Hashable, Sendable {
    /// The id counter before the change.
    var nextId: UInt64
    /// The graph generation the change was answered under (`NavigationState.graphGeneration`).
    var graph: UInt64
    /// What the change did to the undo and redo lists, or the lists right after it. Not part of the value: two
    /// states whose steps hold their lists in different forms are equal when the lists they make are
    /// (`NavigationState.==`).
    var lists: KeptLists

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.nextId == rhs.nextId && lhs.graph == rhs.graph }
    func hash(into hasher: inout Hasher) {
        hasher.combine(nextId)
        hasher.combine(graph)
    }
}

/// One kept change as a recording lists it.
public struct ExportedChange: Hashable, Sendable {
    /// The change's line, request and caller, as `GetChanges` lists them.
    public var info: ChangeInfo
    /// The visible path right after the change.
    public var path: [Entry]
    /// The id counter before the change.
    public var nextId: UInt64
    /// The graph generation the change was answered under.
    public var graph: UInt64
}

/// What `Export` is made of: the start state and the changes after it.
public struct ExportedStretch: Sendable {
    /// The start state (`recordingStart(at:)`) and the graph generation it was answered under.
    public var start: NavigationState
    /// The generation of the graph `start` was answered under.
    public var startGraph: UInt64
    /// The kept changes after the start, oldest first.
    public var changes: [ExportedChange]
}

extension Coordinator {
    /// The whole state right after kept `revision` (0: the current one): its tree with ids and flows, its
    /// facts, the undo and redo lists it had, the history steps up to it with their states and the base (what
    /// a later `Revert` goes back to); the id counter is today's, so ids issued after it stay unique.
    /// `RevisionNotKept` as `GetTreeAt`.
    public func recordingStart(at revision: UInt64) throws(NavigationError) -> NavigationState {
        let kept = try keptState(revision)
        var start = NavigationState(tree: kept.state.tree, revision: kept.revision, ids: state.ids)
        start.facts = kept.state.facts
        var history = state.history
        while let newest = history.top?.element, newest.entry.revision > kept.revision { _ = history.pop() }
        start.history = history
        start.base = state.base
        if kept.revision == state.revision {
            start.undo = state.undo
            start.redo = state.redo
            start.graphGeneration = state.graphGeneration
        } else if let export = exportKept(at: kept.revision, in: history) {
            if let lists = state.listsAfter(revision: kept.revision) {
                start.undo = lists.undo.trees
                start.redo = lists.redo.trees
            }
            start.graphGeneration = export.graph
        }
        start.baseExport = state.baseExport
        return start
    }

    /// The kept changes from the first at or after `from` (0: the oldest `History` lists) to the current
    /// revision, with the state the first started from: Export. Changes kept without what Export needs (from a
    /// state an older navd saved, or under a graph generation `isKnown` does not know) are passed over: the
    /// stretch starts after the newest of them. `RevisionNotKept` when no kept change at or after `from` has what
    /// Export needs.
    public func exportedStretch(from: UInt64, isKnown: (UInt64) -> Bool) throws(NavigationError) -> ExportedStretch {
        var steps: [KeptChange] = []
        state.history.walk(max(0, graph.limits.maxHistory)) { _, step in
            guard step.entry.revision >= from, let export = step.export, isKnown(export.graph), step.after != nil else { return false }
            steps.append(step)
            return true
        }
        steps.reverse()
        guard let first = steps.first, let firstExport = first.export else {
            let listed = changes(from: 0, limit: Int.max).map(\.entry.revision)
            let range = listed.isEmpty ? "none" : "\(listed.first!) to \(listed.last!)"
            throw .revisionNotKept("no kept change at or after revision \(from) can be exported (the kept changes are \(range)\(listed.isEmpty ? "" : "; changes an older navd saved cannot"))")
        }
        var older = state.history
        while let newest = older.top?.element, newest.entry.revision >= first.entry.revision { _ = older.pop() }
        guard let startRevision = older.top?.element.entry.revision ?? state.base?.revision else {
            throw .revisionNotKept("the state before revision \(first.entry.revision) is not kept")
        }
        let start = try recordingStart(at: startRevision)
        let changes = steps.map { step in
            let tree = step.after!.state.tree
            return ExportedChange(
                info: ChangeInfo(entry: step.entry, record: step.record, tab: tree.isTabbed ? tree.current.name : "", top: tree.topScreen.route),
                path: tree.path, nextId: step.export!.nextId, graph: step.export!.graph)
        }
        let startGraph = exportKept(at: startRevision, in: older).map(\.graph).flatMap { isKnown($0) ? $0 : nil } ?? firstExport.graph
        return ExportedStretch(start: start, startGraph: startGraph, changes: changes)
    }

    /// The oldest graph generation a kept change (or the base) was answered under: the graphs of older
    /// generations are no longer needed. Walks the history (done at a reload, not per change).
    public var oldestKeptGraphGeneration: UInt64 {
        var oldest = state.baseExport?.graph ?? state.graphGeneration
        for step in state.history.all { if let graph = step.export?.graph { oldest = min(oldest, graph) } }
        return oldest
    }

    /// What Export keeps of the change that made `revision`: the newest step of `history` when it made it, else
    /// the base's.
    private func exportKept(at revision: UInt64, in history: BoundedStack<KeptChange>) -> KeptForExport? {
        if let newest = history.top?.element, newest.entry.revision == revision { return newest.export }
        return state.base?.revision == revision ? state.baseExport : nil
    }
}
