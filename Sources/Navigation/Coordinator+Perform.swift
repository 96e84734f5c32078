extension Coordinator {
    /// What a commit does to the undo and redo lists.
    enum UndoEffect {
        /// An ordinary change: the old tree becomes an undo step; redo is cleared.
        case record
        /// An undo: the newest undo step was taken; the old tree becomes a redo step.
        case undo
        /// A redo: the newest redo step was taken; the old tree becomes an undo step.
        case redo
        /// Reconciliation: both lists are cleared.
        case clear
    }

    /// Performs `op` at `time` (µs since the epoch): all or nothing, following the contract's no-op,
    /// undo/redo and history rules. A failure leaves the state exactly as it was.
    public mutating func perform(_ op: Operation, at time: Int64) throws(NavigationError) -> Change {
        switch op {
        case .undo:
            guard let previous = state.undo.top?.element else {
                throw .nothingToUndo("there is no change to undo")
            }
            return commit(previous, ids: state.ids, op: op, time: time, effect: .undo, newScreenId: nil)
        case .redo:
            guard let later = state.redo.top?.element else {
                throw .nothingToRedo("there is nothing to redo; only an Undo can be redone, and any other change clears the redo list")
            }
            return commit(later, ids: state.ids, op: op, time: time, effect: .redo, newScreenId: nil)
        case .reconcile:
            var ids = state.ids
            var warnings: [String] = []
            let tree = reconciledTree(ids: &ids, warnings: &warnings)
            return commit(tree, ids: ids, op: op, time: time, effect: .clear, newScreenId: nil)
        case .apply(let raws, let expectedRevision):
            var tree = state.tree
            var ids = state.ids
            try applyOperations(raws, expectedRevision: expectedRevision, on: &tree, ids: &ids)
            return commit(tree, ids: ids, op: op, time: time, effect: .record, newScreenId: nil)
        default:
            var tree = state.tree
            var ids = state.ids
            let newScreenId = try execute(op, on: &tree, ids: &ids)
            return commit(tree, ids: ids, op: op, time: time, effect: .record, newScreenId: newScreenId)
        }
    }

    /// Makes `tree` current as one new revision, or reports a no-op when it equals the current tree.
    mutating func commit(_ tree: Tree, ids: IdCounter, op: Operation, time: Int64, effect: UndoEffect, newScreenId: String?) -> Change {
        if tree == state.tree && (effect == .record || effect == .clear) {
            return Change(
                revision: state.revision, isNoOp: true, cause: op.cause, newScreenId: nil, changedProperties: [],
                record: nil, selectedTab: selectedTab, path: path)
        }
        let before = PropertySnapshot(self)
        let keep = graph.limits.maxUndo
        let old = state.tree
        switch effect {
        case .record:
            state.undo.push(old, keep: keep)
            state.redo = BoundedStack()
        case .undo:
            _ = state.undo.pop()
            state.redo.push(old, keep: keep)
        case .redo:
            _ = state.redo.pop()
            state.undo.push(old, keep: keep)
        case .clear:
            state.undo = BoundedStack()
            state.redo = BoundedStack()
        }
        state.tree = tree
        state.ids = ids
        state.revision += 1
        state.history.push(HistoryEntry(revision: state.revision, cause: op.cause, time: time), keep: max(1, graph.limits.maxHistory))
        let record = JournalRecord(revision: state.revision, cause: op.cause, time: time, operation: op)
        return Change(
            revision: state.revision, isNoOp: false, cause: op.cause, newScreenId: newScreenId,
            changedProperties: before.changes(to: PropertySnapshot(self)), record: record,
            selectedTab: selectedTab, path: path)
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
