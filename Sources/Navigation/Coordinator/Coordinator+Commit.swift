extension Coordinator {
    /// What a commit does to the undo and redo lists.
    enum UndoEffect {
        /// An ordinary change: the old tree becomes an undo step; redo is cleared.
        case record
        /// A change of facts only (with the repair it caused): both lists stay as they are.
        case keep
        /// Reconciliation: both lists are cleared.
        case clear
        /// Undo (or redo, `isUndo` false) that took `count` trees off its list: the lists become these.
        case step(isUndo: Bool, count: Int, undo: BoundedStack<Tree>, redo: BoundedStack<Tree>)

        /// What a kept step says of it (KeptLists.swift).
        var listKind: ListChange.Kind {
            switch self {
            case .record: .record
            case .keep: .keep
            case .clear: .clear
            case .step(let isUndo, let count, _, _): isUndo ? .undo(count: count) : .redo(count: count)
            }
        }
    }

    /// Makes the transaction's result current as one new revision, or reports a no-op when nothing differs. The
    /// transaction is taken: a copy of it is its tree, facts and lists retained and released.
    mutating func commit(_ txn: consuming Transaction, op: Operation, time: Int64, effect: UndoEffect) -> Change {
        let gone = txn.removedScreens || !txn.startedFlows.isEmpty ? txn.tree.pruneFlows(comparedTo: state.tree, started: txn.startedFlows) : []
        if txn.tree == state.tree && txn.facts == state.facts {
            var change = Change(
                revision: state.revision, isNoOp: true, cause: op.cause, newScreenId: nil, changedProperties: [],
                record: nil, selectedTab: selectedTab, path: path)
            change.outcome = .ignored
            return change
        }
        let before = PropertiesBefore(tree: state.tree, canUndo: canUndo, canRedo: canRedo, facts: state.facts)
        let keep = graph.limits.maxUndo
        let old = state.tree
        let idsBefore = state.ids.next
        switch effect {
        case .record:
            state.undo.push(old, keep: keep)
            state.redo = BoundedStack()
        case .keep:
            break
        case .clear:
            state.undo = BoundedStack()
            state.redo = BoundedStack()
        case .step(_, _, let undo, let redo):
            state.undo = undo
            state.redo = redo
        }
        let lists: KeptLists = if state.listsKnown(at: state.revision) {
            .change(ListChange(kind: effect.listKind, undoCount: state.undo.count, redoCount: state.redo.count))
        } else {
            .lists(ListPair(undo: state.undo, redo: state.redo))
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
        let entry = HistoryEntry(revision: state.revision, cause: op.cause, time: time)
        state.recordHistory(
            entry, from: old, export: KeptForExport(nextId: idsBefore, graph: state.graphGeneration, lists: lists),
            keep: max(1, graph.limits.maxHistory))
        let record = JournalRecord(entry: entry, operation: op)
        var change = Change(
            revision: state.revision, isNoOp: false, cause: op.cause, newScreenId: txn.newScreenID,
            changedProperties: before.changes(to: self), record: record,
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
        let entry = record.entry
        guard entry.revision == state.revision + 1 else {
            throw ReplayError(message: "journal record for revision \(entry.revision) does not follow the state's revision \(state.revision)")
        }
        var copy = self
        let change = try copy.perform(record.operation, at: entry.time)
        guard !change.isNoOp, change.revision == entry.revision else {
            throw ReplayError(message: "replaying '\(entry.cause)' of revision \(entry.revision) did not reproduce that revision (the route graph may have changed)")
        }
        if let recorded = record.changeRecord { copy.record(recorded, forRevision: entry.revision) }
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
