extension Coordinator {
    /// What a commit does to the undo and redo lists.
    enum UndoEffect {
        /// An ordinary change: the old tree becomes an undo step; redo is cleared.
        case record
        /// A change of facts only (with the repair it caused): both lists stay as they are.
        case keep
        /// Reconciliation: both lists are cleared.
        case clear
        /// Undo or redo: the lists become these.
        case set(undo: BoundedStack<Tree>, redo: BoundedStack<Tree>)
    }

    /// Performs `op` at `time` (µs since the epoch): all or nothing, following the contract's no-op,
    /// undo/redo, guard and history rules. A failure leaves the state exactly as it was.
    public mutating func perform(_ op: Operation, at time: Int64) throws(NavigationError) -> Change {
        try perform(op, at: time, tracing: false).change
    }

    /// `perform`, also returning the trace of the steps when `tracing` (for Resolve).
    mutating func perform(_ op: Operation, at time: Int64, tracing: Bool) throws(NavigationError) -> (change: Change, trace: [String]) {
        switch op {
        case .undo, .redo:
            return (try stepThroughHistory(op, at: time), [])
        case .reconcile:
            var warnings: [String] = []
            return (commitReconciliation(reconciliation(warnings: &warnings), time: time), [])
        default:
            var txn = Transaction(state, tracing: tracing)
            try run(.operation(op), &txn)
            let change = commit(txn, op: op, time: time, effect: txn.touchedTree ? .record : .keep)
            return (change, txn.trace ?? [])
        }
    }

    /// Undo or Redo: steps to the most recent recorded tree that, fitted to the current graph and facts (a tree
    /// recorded under an older graph may hold screens it no longer allows), differs from the current one; the
    /// steps passed over move to the other list with it.
    mutating func stepThroughHistory(_ op: Operation, at time: Int64) throws(NavigationError) -> Change {
        let isUndo = op == .undo
        var from = isUndo ? state.undo : state.redo
        var to = isUndo ? state.redo : state.undo
        var ids = state.ids
        var leaving = state.tree
        let keep = graph.limits.maxUndo
        while let candidate = from.pop() {
            to.push(leaving, keep: keep)
            var ignoredWarnings: [String] = []
            var ignoredFlows: [FlowInstance] = []
            let tree = fitted(candidate, facts: state.facts, ids: &ids, warnings: &ignoredWarnings, abandoned: &ignoredFlows, fitting: state.tree)
            if tree != state.tree {
                var txn = Transaction(state)
                txn.tree = tree
                txn.ids = ids
                txn.touchedTree = true
                txn.removedScreens = true
                return commit(txn, op: op, time: time, effect: isUndo ? .set(undo: from, redo: to) : .set(undo: to, redo: from))
            }
            leaving = candidate
        }
        if isUndo { throw .nothingToUndo("there is no change to undo") }
        throw .nothingToRedo("there is nothing to redo; only an Undo can be redone, and any other change clears the redo list")
    }

    /// Makes the transaction's result current as one new revision, or reports a no-op when nothing differs.
    mutating func commit(_ input: Transaction, op: Operation, time: Int64, effect: UndoEffect) -> Change {
        var txn = input
        let gone = txn.removedScreens || !txn.startedFlows.isEmpty ? txn.tree.pruneFlows(comparedTo: state.tree, started: txn.startedFlows) : []
        if txn.tree == state.tree && txn.facts == state.facts {
            var change = Change(
                revision: state.revision, isNoOp: true, cause: op.cause, newScreenId: nil, changedProperties: [],
                record: nil, selectedTab: selectedTab, path: path)
            change.outcome = .ignored
            return change
        }
        let before = PropertySnapshot(self)
        let keep = graph.limits.maxUndo
        let old = state.tree
        switch effect {
        case .record:
            state.undo.push(old, keep: keep)
            state.redo = BoundedStack()
        case .keep:
            break
        case .clear:
            state.undo = BoundedStack()
            state.redo = BoundedStack()
        case .set(let undo, let redo):
            state.undo = undo
            state.redo = redo
        }
        var ended = txn.finished
        if !gone.isEmpty || !txn.droppedFlows.isEmpty {
            var endedIDs = Set(ended.map(\.id))
            for instance in gone + txn.droppedFlows where endedIDs.insert(instance.id).inserted {
                ended.append(FlowEnd(id: instance.id, flow: instance.flow, output: ""))
            }
        }
        state.tree = txn.tree
        state.ids = txn.ids
        state.facts = txn.facts
        state.revision += 1
        state.recordHistory(
            KeptChange(entry: HistoryEntry(revision: state.revision, cause: op.cause, time: time), after: state.revisionState),
            keep: max(1, graph.limits.maxHistory))
        let record = JournalRecord(revision: state.revision, cause: op.cause, time: time, operation: op)
        var change = Change(
            revision: state.revision, isNoOp: false, cause: op.cause, newScreenId: txn.newScreenID,
            changedProperties: before.changes(to: PropertySnapshot(self)), record: record,
            selectedTab: selectedTab, path: path)
        change.endedFlows = ended
        change.newFlowID = txn.newFlowID
        change.notes = txn.notes
        change.outcome = txn.redirected ? .redirected : txn.resumed ? .resumed : !txn.finished.isEmpty ? .finished : .applied
        return change
    }

    /// The facts restored from a snapshot fitted to the graph: each declared fact, defaulted when missing or
    /// of another type now.
    func reconciledFacts(_ facts: [String: ParamValue]) -> [String: ParamValue] {
        var result: [String: ParamValue] = [:]
        for (name, spec) in graph.facts {
            if let value = facts[name], value.type == spec.type { result[name] = value } else { result[name] = spec.defaultValue }
        }
        return result
    }

    /// Re-applies a journaled change at its recorded time; throws unless it reproduces the recorded revision.
    public mutating func replay(_ record: JournalRecord) throws -> Change {
        guard record.revision == state.revision + 1 else {
            throw ReplayError(message: "journal record for revision \(record.revision) does not follow the state's revision \(state.revision)")
        }
        var copy = self
        let change = try copy.perform(record.operation, at: record.time)
        guard !change.isNoOp, change.revision == record.revision else {
            throw ReplayError(message: "replaying '\(record.cause)' of revision \(record.revision) did not reproduce that revision (the route graph may have changed)")
        }
        self = copy
        return change
    }
}

/// A journal record that does not fit the state it is replayed on.
public struct ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What did not fit.
    public var message: String
    /// The message.
    public var description: String { message }
}
