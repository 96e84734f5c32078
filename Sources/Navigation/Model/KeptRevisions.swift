// The kept revisions (docs/devtools.md): the current one, every revision History lists, and the base, the
// state the oldest listed change started from. Each history step carries the state right after its change in
// compact form (KeptState.swift), sharing what it has in common with the step before, so a step costs what its
// change did, not the size of the tree.

/// The state right after a revision: what `GetTreeAt` gives back and what `Revert` goes back to.
struct RevisionState: Hashable, Sendable {
    /// The tree, its flow instances included.
    var tree: Tree
    /// Every fact's value.
    var facts: [String: ParamValue]
}

/// One change the history keeps: its line, the state right after it, and the request and caller behind it.
struct KeptChange: Hashable, Sendable {
    /// The line `History` lists.
    var entry: HistoryEntry
    /// The state right after the change; nil for a change restored from a version-4 snapshot, which kept none.
    var after: KeptState?
    /// The request and the caller (GetChanges); nil for a change restored from a state 0.1.0 wrote (snapshot 4,
    /// journal record 3), which recorded none.
    var record: ChangeRecord? = nil
    /// What Export needs beyond the state (RecordingStartState.swift); nil for a change kept without it.
    var export: KeptForExport? = nil
}

/// A revision and the state right after it.
struct KeptRevision: Hashable, Sendable {
    var revision: UInt64
    var state: RevisionState
}

/// The whole state at one kept revision, as `GetTreeAt` answers it.
public struct StateAtRevision: Hashable, Sendable {
    /// The revision (the current one's number when 0 was asked for).
    public var revision: UInt64
    /// The selected tab then ("" when untabbed).
    public var selectedTab: String
    /// The whole tree then, pre-order, as `GetTree` lists it.
    public var nodes: [Node]
    /// Every fact's value then.
    public var facts: [String: ParamValue]
    /// The flow instances then, as `GetFlows` lists them.
    public var flows: [FlowInfo]

    /// A state with the given fields.
    public init(revision: UInt64, selectedTab: String, nodes: [Node], facts: [String: ParamValue], flows: [FlowInfo]) {
        self.revision = revision
        self.selectedTab = selectedTab
        self.nodes = nodes
        self.facts = facts
        self.flows = flows
    }
}

extension NavigationState {
    /// Records the change that made `entry` as the newest history step, with the current state right after it,
    /// keeping at least `keep` steps; when older steps are dropped, the newest of them becomes the base. `old` is
    /// the tree before the change, which the newest step holds when it made the revision before; `export` is
    /// what Export needs of the change beyond its state.
    mutating func recordHistory(_ entry: HistoryEntry, from old: Tree, export: KeptForExport?, keep: Int) {
        let previous = history.top.flatMap { $0.element.entry.revision == entry.revision - 1 ? $0.element.after : nil }
        let after = KeptState(revisionState, sharingWith: previous, madeFrom: previous == nil ? nil : old)
        // A push that trims makes the step `keep - 1` below the newest the base: its lists are made first.
        let baseLists = history.count + 1 - keep > keep ? listsOfStep(at: keep - 1) : nil
        let (dropped, cutOff) = history.pushKeepingCutOff(KeptChange(entry: entry, after: after, export: export), keep: keep)
        if let dropped { setBase(dropped, lists: baseLists) }
        if let cutOff { trimmedHistory.hold(cutOff) }
    }

    /// Drops history steps beyond `2 * keep` (as pushes do), keeping the newest `keep`.
    mutating func trimHistory(keep: Int) {
        let baseLists = history.count - keep > keep ? listsOfStep(at: keep) : nil
        let (dropped, cutOff) = history.trimIfFullKeepingCutOff(keep: keep)
        if let dropped { setBase(dropped, lists: baseLists) }
        if let cutOff { trimmedHistory.hold(cutOff) }
    }

    /// Makes `change` the base, with `lists`, the lists right after it (nil: not known, and neither is what
    /// Export needs of it).
    private mutating func setBase(_ change: KeptChange, lists: ListPair?) {
        base = change.after.map { KeptRevision(revision: change.entry.revision, state: $0.state) }
        baseExport = change.export.flatMap { export in
            lists.map { KeptForExport(nextId: export.nextId, graph: export.graph, lists: .lists($0)) }
        }
    }

    /// The current state as a kept state.
    var revisionState: RevisionState { RevisionState(tree: tree, facts: facts) }
}

extension Coordinator {
    /// Releases up to `limit` of the history steps changes or reloads trimmed off (a trim cuts up to `max-history`
    /// of them, about a millisecond per thousand to release): the service releases a slice after each batch is
    /// answered, so that no call waits for a whole trim's release. Returns how many it released.
    @discardableResult
    public mutating func releaseTrimmedHistory(upTo limit: Int) -> Int { state.trimmedHistory.release(upTo: limit) }

    /// Whether trimmed history steps wait to be released.
    public var holdsTrimmedHistory: Bool { !state.trimmedHistory.isEmpty }

    /// The oldest kept revision: of the `maxHistory` newest history steps that kept a state, then the base, the
    /// oldest; the current one when there is none.
    func oldestKept() -> UInt64 {
        let listed = max(0, graph.limits.maxHistory)
        guard listed > 0 else { return state.revision }
        let steps = state.history.newest(listed + 1)
        if steps.count > listed, steps[listed].after != nil { return steps[listed].entry.revision }
        if steps.count <= listed, let base = state.base, !steps.isEmpty { return base.revision }
        return steps.prefix(listed).last(where: { $0.after != nil })?.entry.revision ?? state.revision
    }

    /// The state right after `revision` (0: the current one), or `RevisionNotKept` naming the kept range. Walks
    /// the history only as far back as `revision` (revisions only grow), copying nothing on the way.
    func keptState(_ revision: UInt64) throws(NavigationError) -> KeptRevision {
        if revision == 0 || revision == state.revision { return KeptRevision(revision: state.revision, state: state.revisionState) }
        let listed = max(0, graph.limits.maxHistory)
        if revision < state.revision && listed > 0 {
            var found: KeptRevision?
            var walked = 0
            state.history.walk(listed + 1) { index, step in
                walked = index + 1
                guard step.entry.revision <= revision else { return true }
                if step.entry.revision == revision, let after = step.after { found = KeptRevision(revision: revision, state: after.state) }
                return false
            }
            if let found { return found }
            if walked == state.history.count, walked <= listed, walked > 0, let base = state.base, base.revision == revision { return base }
        }
        let oldest = oldestKept()
        let range = oldest == state.revision ? "only its current revision \(oldest)" : "revisions \(oldest) to \(state.revision)"
        throw .revisionNotKept("revision \(revision) is not kept: this navigator keeps \(range)")
    }

    /// The tree, facts and flows right after `revision` (0: the current one): GetTreeAt.
    public func state(at revision: UInt64) throws(NavigationError) -> StateAtRevision {
        let kept = try keptState(revision)
        let tree = kept.state.tree
        return StateAtRevision(
            revision: kept.revision, selectedTab: tree.isTabbed ? tree.current.name : "", nodes: tree.nodes,
            facts: kept.state.facts,
            flows: tree.flowInfos)
    }
}

extension Coordinator {
    /// `StaleRevision` unless `expected` is 0 or the current revision (Apply's, Send's and Revert's check).
    func checkExpected(_ expected: UInt64) throws(NavigationError) {
        if expected != 0 && expected != state.revision {
            throw .staleRevision("expected revision \(expected), but the tree is at revision \(state.revision); read the state again and retry")
        }
    }

    /// Revert inside a change: the tree and flows of kept `revision` (RevisionNotKept, then StaleRevision),
    /// repaired to the current graph and the transaction's facts as Undo repairs; never redirects. Flows that
    /// leave the tree are abandoned by the commit; those that come back keep their ids.
    func revert(to revision: UInt64, expectedRevision: UInt64 = 0, _ txn: inout Transaction) throws(NavigationError) {
        let kept = try keptState(revision)
        try checkExpected(expectedRevision)
        var ignoredWarnings: [String] = []
        var ignoredFlows: [FlowInstance] = []
        txn.tree = fitted(kept.state.tree, facts: txn.facts, ids: &txn.ids, warnings: &ignoredWarnings, abandoned: &ignoredFlows, fitting: txn.tree)
        txn.touchedTree = true
        txn.removedScreens = true
    }
}
