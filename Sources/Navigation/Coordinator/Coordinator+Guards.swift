// Facts and guards: a screen whose route requires a false fact is never on the tree. A request that would
// put one there is redirected to the guard's flow (and kept), or refused; a fact turning false removes them.

extension Coordinator {
    /// Runs `request` on `txn`; when it would put a guarded screen on the tree, its effects are dropped and
    /// the guard's flow starts instead, keeping the request as that instance's pending intent.
    func run(_ request: PendingIntent, _ txn: inout Transaction) throws(NavigationError) {
        // Without guards nothing is redirected, so there is nothing to go back to and no copy to keep.
        guard guardsInUse else { return try runUnguarded(request, &txn) }
        let before = txn
        do {
            try runUnguarded(request, &txn)
        } catch {
            guard error.kind == .guardFailed, let violation = txn.violation else { throw error }
            var trace = txn.trace
            txn = before
            trace?.append("  guard: route '\(violation.route)' needs fact '\(violation.fact)', which is false")
            txn.trace = trace
            try redirect(request, because: violation, &txn)
        }
    }

    /// The request itself, with no redirect.
    func runUnguarded(_ request: PendingIntent, _ txn: inout Transaction) throws(NavigationError) {
        switch request {
        case .event(let source, let event, let params):
            try countStep(&txn)
            try send(source: source, event: event, params: params, expectedRevision: 0, &txn)
        case .operation(let op):
            switch op {
            case .apply(let raws, let expectedRevision):
                try applyOperations(raws, expectedRevision: expectedRevision, &txn)
            case .send(let source, let event, let params, let expectedRevision):
                try checkStatically([op], indexed: false)
                try countStep(&txn)
                try send(source: source, event: event, params: params, expectedRevision: expectedRevision, &txn)
            case .start(let flow, let params):
                try checkStatically([op], indexed: false)
                try countStep(&txn)
                let flowID = try startFlow(flow, params: params, onOutput: [:], &txn)
                txn.newFlowID = flowID
            case .finish(let output, let params):
                try checkStatically([op], indexed: false)
                try countStep(&txn)
                try finishTop(output: output, params: params, &txn)
            case .setFacts(let values):
                try checkStatically([op], indexed: false)
                try countStep(&txn)
                try setFacts(values, &txn)
            case .revert(let revision, let expectedRevision):
                try countStep(&txn)
                try revert(to: revision, expectedRevision: expectedRevision, &txn)
            default:
                try countStep(&txn)
                if case .open(let target) = op { txn.log("open '\(target)'") } else { txn.log(op.cause) }
                let screenID = try runTreeOp(op, &txn)
                txn.newScreenID = screenID
            }
        }
    }

    /// Starts the guard's flow from the top screen, keeping `request`; `GuardFailed` without a guard,
    /// `GuardLoop` when that flow already encloses the top screen.
    func redirect(_ request: PendingIntent, because violation: (route: String, fact: String), _ txn: inout Transaction) throws(NavigationError) {
        guard let guardSpec = graph.guards[violation.fact] else {
            throw .guardFailed("route '\(violation.route)' requires fact '\(violation.fact)', which is false, and no guard handles it; set it with SetFacts first")
        }
        let top = txn.tree.topScreen
        if let loop = txn.tree.enclosingFlows(at: txn.tree.topPosition).first(where: { $0.flow == guardSpec.flow }) {
            throw .guardLoop("route '\(violation.route)' requires fact '\(violation.fact)'; its guard starts flow '\(guardSpec.flow)', but flow '\(loop.flow)' (\(loop.id)) already encloses the top screen '\(top.route)' (\(top.id)): finish that flow (or set '\(violation.fact)') first")
        }
        let kept: PendingIntent = switch request {
        case .event(let source, let event, let params): .event(source: source.isEmpty ? top.id : source, event: event, params: params)
        case .operation(.send(let source, let event, let params, _)): .event(source: source.isEmpty ? top.id : source, event: event, params: params)
        case .operation(.apply(let raws, _)): .operation(.apply(raws, expectedRevision: 0))
        case .operation: request
        }
        do {
            let flowID = try startFlow(guardSpec.flow, params: [:], onOutput: [:], pending: kept, resumeOn: guardSpec.resumeOn, &txn)
            txn.newFlowID = flowID
        } catch {
            guard let inner = txn.violation else { throw error }
            txn.violation = nil
            throw .guardFailed("route '\(violation.route)' requires fact '\(violation.fact)'; its guard flow '\(guardSpec.flow)' starts at route '\(inner.route)', which requires fact '\(inner.fact)', also false")
        }
        txn.newScreenID = txn.tree.topScreen.id
        txn.redirected = true
        let flowID = txn.newFlowID ?? ""
        txn.log("  redirected to flow '\(guardSpec.flow)' (\(flowID)); resumes on '\(guardSpec.resumeOn)'")
    }

    /// `GuardFailed` (with `txn.violation` set) when the selected tab holds a screen whose route requires a false fact.
    func checkGuards(_ txn: inout Transaction) throws(NavigationError) {
        guard guardsInUse else { return }
        for frame in txn.tree.current.layers {
            for screen in frame.screens {
                guard let requires = index.requires[screen.route] else { continue }
                if let fact = requires.first(where: { txn.facts[$0] != .bool(true) }) {
                    txn.violation = (screen.route, fact)
                    throw .guardFailed("route '\(screen.route)' requires fact '\(fact)', which is false")
                }
                txn.log("  guard: route '\(screen.route)' (\(screen.id)) requires \(requires.joined(separator: ", ")): true")
            }
        }
    }

    /// Sets facts, all or nothing (`UnknownFact`, `InvalidParams`); a fact turning false removes what requires it.
    func setFacts(_ values: InputParams, _ txn: inout Transaction) throws(NavigationError) {
        var facts = txn.facts
        for key in values.keys.sorted() {
            guard let spec = graph.facts[key] else {
                let known = graph.factOrder.isEmpty ? "the route graph declares no facts" : "facts: \(graph.factOrder.joined(separator: ", "))"
                throw .unknownFact("no fact '\(key)'; \(known)")
            }
            guard let value = RouteGraph.convert(values[key]!, to: spec.type) else {
                throw .invalidParams("fact '\(key)' is \(spec.type.rawValue) (\(spec.type.acceptedDBusTypes)), not \(values[key]!.kindDescription)")
            }
            facts[key] = value
        }
        let turnedFalse = facts.contains { key, value in value == .bool(false) && txn.facts[key] != .bool(false) }
        txn.facts = facts
        let described = values.keys.sorted().map { "\($0)=\(facts[$0].map(Self.describe) ?? "")" }.joined(separator: ", ")
        txn.log("  facts: \(described)")
        if turnedFalse {
            txn.tree = repaired(txn.tree, facts: facts, ids: &txn.ids)
            txn.removedScreens = true
        }
    }

    static func describe(_ value: ParamValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        }
    }

    /// `tree` without the screens whose route requires a false fact: each goes with everything above it in
    /// its stack and the layers presented from those; a base stack's root gives way to its tab's root route.
    func repaired(_ tree: Tree, facts: [String: ParamValue], ids: inout IdCounter) -> Tree {
        guard guardsInUse else { return tree }
        var result = tree
        for tabIndex in result.tabs.indices {
            var cutAt: (layer: Int, index: Int)?
            search: for (layer, frame) in result.tabs[tabIndex].layers.enumerated() {
                for (position, screen) in frame.screens.enumerated() {
                    guard let requires = self.index.requires[screen.route] else { continue }
                    if requires.contains(where: { facts[$0] != .bool(true) }) {
                        cutAt = (layer, position)
                        break search
                    }
                }
            }
            guard let position = cutAt else { continue }
            let selected = result.selected
            result.selected = tabIndex
            cut(&result, at: position, ids: &ids)
            result.selected = selected
        }
        _ = result.pruneFlows(comparedTo: tree)
        return result
    }
}
