/// A request to change the tree: one per mutating method of the contract.
///
/// An operation is declared whole in this file: its case, its cause, its journal form (a tag byte that never
/// changes, then its arguments; versioned by `JournalRecord`) and how `Coordinator.perform` runs it. An op that
/// Apply takes is also a line of `OperationKind`'s table (OperationDeclaration.swift), and its step is in `execute`.
public enum Operation: Hashable, Sendable {
    /// Push a screen onto the top stack.
    case push(route: String, params: InputParams)
    /// Pop the top screen of the top stack.
    case pop
    /// Pop (and dismiss layers) until the screen with that id, or the nearest with that route, is on top.
    case popTo(target: String)
    /// Pop the top stack to its root.
    case popToRoot
    /// Swap the top screen for a new one with the same presentation.
    case replace(route: String, params: InputParams)
    /// Replace the whole top stack.
    case setStack([ScreenRequest])
    /// Present a layer of `style` (`sheet`/`cover`) from the top screen.
    case present(route: String, params: InputParams, style: String)
    /// Dismiss the top layer.
    case dismiss
    /// Dismiss every layer on the path.
    case dismissAll
    /// Pop, else dismiss, else `AtRoot`.
    case back
    /// Select a tab.
    case selectTab(String)
    /// Go to a named state or deep link.
    case open(String)
    /// Several ops as one change; expected revision 0 skips the check.
    case apply([RawOperation], expectedRevision: UInt64)
    /// Bring back the tree before the last change.
    case undo
    /// Re-apply what the last undo undid.
    case redo
    /// Repairs a restored tree to fit the current graph (see `Coordinator.reconcile`); journaled so replay repeats it.
    case reconcile
    /// Report an event from a screen on the path ("" for the top); navd resolves and runs its handler.
    /// Expected revision 0 skips the check.
    case send(source: String, event: String, params: InputParams, expectedRevision: UInt64)
    /// Start a flow from the screen on top.
    case start(flow: String, params: InputParams)
    /// Finish the innermost flow enclosing the screen on top.
    case finish(output: String, params: InputParams)
    /// Set some facts, all or nothing.
    case setFacts(InputParams)
    /// Make the tree and flows what they were at a kept revision, repaired to the graph and facts; expected
    /// revision 0 skips the check (an Apply op's is 0: Apply checks its own).
    case revert(revision: UInt64, expectedRevision: UInt64)

    /// The Apply op this is (`OperationKind`); nil for apply, undo, redo and reconcile, which Apply cannot hold.
    public var kind: OperationKind? {
        switch self {
        case .push: .push
        case .pop: .pop
        case .popTo: .popTo
        case .popToRoot: .popToRoot
        case .replace: .replace
        case .setStack: .setStack
        case .present: .present
        case .dismiss: .dismiss
        case .dismissAll: .dismissAll
        case .back: .back
        case .selectTab: .selectTab
        case .open: .open
        case .send: .send
        case .start: .start
        case .finish: .finish
        case .setFacts: .setFacts
        case .revert: .revert
        case .apply, .undo, .redo, .reconcile: nil
        }
    }

    /// The change's cause, as History and StackChanged name it.
    public var changeCause: ChangeCause {
        switch self {
        case .apply: .apply
        case .undo: .undo
        case .redo: .redo
        case .reconcile: .reconcile
        default: kind.map(ChangeCause.op) ?? .reconcile
        }
    }

    /// The lower-case method name: the change's `cause` (an Apply op's is its contract name, `popto`).
    public var cause: String { changeCause.rawValue }
}

/// What made a change, as History, GetChanges and StackChanged name it: the lower-case name of the method that
/// made it (an Apply op's contract name for an op's own method, `popto`), or `reconcile`.
public enum ChangeCause: Hashable, Sendable, RawRepresentable {
    /// A method that is also an Apply op (`push`, `popto`, `setfacts`, …).
    case op(OperationKind)
    /// `Apply`, `Undo`, `Redo`; a repair after a reload or at start-up.
    case apply, undo, redo, reconcile

    /// The cause as the contract spells it.
    public var rawValue: String {
        switch self {
        case .op(let kind): kind.rawValue
        case .apply: "apply"
        case .undo: "undo"
        case .redo: "redo"
        case .reconcile: "reconcile"
        }
    }

    /// The cause spelled `rawValue`, if it is one.
    public init?(rawValue: String) {
        if let kind = OperationKind(rawValue: rawValue) {
            self = .op(kind)
            return
        }
        guard let cause = [ChangeCause.apply, .undo, .redo, .reconcile].first(where: { $0.rawValue == rawValue }) else {
            return nil
        }
        self = cause
    }
}

// How the journal writes each operation: a tag byte (fixed once written: journals on disk keep it; 0 push … 15
// reconcile, 16 send … 19 setfacts), then its arguments in the order of the case.
extension ByteWriter {
    mutating func operation(_ op: Operation) {
        switch op {
        case .push(let route, let params): byte(0); string(route); inputParams(params)
        case .pop: byte(1)
        case .popTo(let target): byte(2); string(target)
        case .popToRoot: byte(3)
        case .replace(let route, let params): byte(4); string(route); inputParams(params)
        case .setStack(let screens):
            byte(5); count(screens.count)
            for screen in screens { string(screen.route); inputParams(screen.params) }
        case .present(let route, let params, let style): byte(6); string(route); inputParams(params); string(style)
        case .dismiss: byte(7)
        case .dismissAll: byte(8)
        case .back: byte(9)
        case .selectTab(let tab): byte(10); string(tab)
        case .open(let target): byte(11); string(target)
        case .apply(let ops, let expectedRevision):
            byte(12); count(ops.count)
            for raw in ops { string(raw.name); inputParams(raw.arguments) }
            varint(expectedRevision)
        case .undo: byte(13)
        case .redo: byte(14)
        case .reconcile: byte(15)
        case .send(let source, let event, let params, let expectedRevision):
            byte(16); string(source); string(event); inputParams(params); varint(expectedRevision)
        case .start(let flow, let params): byte(17); string(flow); inputParams(params)
        case .finish(let output, let params): byte(18); string(output); inputParams(params)
        case .setFacts(let facts): byte(19); inputParams(facts)
        case .revert(let revision, let expectedRevision): byte(20); varint(revision); varint(expectedRevision)
        }
    }
}

extension ByteReader {
    mutating func operation() throws(SnapshotError) -> Operation {
        switch try byte() {
        case 0: return .push(route: try string(), params: try inputParams())
        case 1: return .pop
        case 2: return .popTo(target: try string())
        case 3: return .popToRoot
        case 4: return .replace(route: try string(), params: try inputParams())
        case 5:
            let count = try count()
            var screens: [ScreenRequest] = []
            screens.reserveCapacity(count)
            for _ in 0..<count { screens.append(ScreenRequest(route: try string(), params: try inputParams())) }
            return .setStack(screens)
        case 6: return .present(route: try string(), params: try inputParams(), style: try string())
        case 7: return .dismiss
        case 8: return .dismissAll
        case 9: return .back
        case 10: return .selectTab(try string())
        case 11: return .open(try string())
        case 12:
            let count = try count()
            var ops: [RawOperation] = []
            ops.reserveCapacity(count)
            for _ in 0..<count { ops.append(RawOperation(name: try string(), arguments: try inputParams())) }
            return .apply(ops, expectedRevision: try varint())
        case 13: return .undo
        case 14: return .redo
        case 15: return .reconcile
        case 16: return .send(source: try string(), event: try string(), params: try inputParams(), expectedRevision: try varint())
        case 17: return .start(flow: try string(), params: try inputParams())
        case 18: return .finish(output: try string(), params: try inputParams())
        case 19: return .setFacts(try inputParams())
        case 20: return .revert(revision: try varint(), expectedRevision: try varint())
        case let tag: throw corrupt("unknown operation tag \(tag)")
        }
    }
}

extension Coordinator {
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
            let trace = txn.trace ?? [], effect: UndoEffect = txn.touchedTree ? .record : .keep
            return (commit(consume txn, op: op, time: time, effect: effect), trace)
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
        var taken = 0
        while let candidate = from.pop() {
            taken += 1
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
                return commit(txn, op: op, time: time, effect: .step(isUndo: isUndo, count: taken, undo: isUndo ? from : to, redo: isUndo ? to : from))
            }
            leaving = candidate
        }
        if isUndo { throw .nothingToUndo("there is no change to undo") }
        throw .nothingToRedo("there is nothing to redo; only an Undo can be redone, and any other change clears the redo list")
    }
}
