// Flows: starting an instance, finishing it with an output (and resuming what its guard kept), listing them.

extension Coordinator {
    /// Every flow instance in the tree, outer before inner (the pre-order of their first screens): GetFlows.
    public var flows: [FlowInfo] {
        state.tree.flowInfos
    }

    /// A tree op inside a change: run with the contract's checks, then the guards.
    @discardableResult
    func runTreeOp(_ op: Operation, _ txn: inout Transaction) throws(NavigationError) -> String? {
        let id = try execute(op, on: &txn.tree, ids: &txn.ids)
        txn.touchedTree = true
        switch op {
        case .push, .present, .selectTab: break
        default: txn.removedScreens = true
        }
        try checkGuards(&txn)
        return id
    }

    /// Starts flow `name` from the top screen: its first screen is pushed or presented, then guarded.
    /// Returns the instance's id.
    func startFlow(
        _ name: String, params: InputParams, onOutput: [String: Handler], pending: PendingIntent? = nil, resumeOn: String = "",
        _ txn: inout Transaction
    ) throws(NavigationError) -> String {
        guard let spec = graph.flows[name] else {
            let known = graph.flowOrder.isEmpty ? "the route graph declares no flows" : "flows: \(graph.flowOrder.joined(separator: ", "))"
            throw .unknownFlow("no flow '\(name)'; \(known)")
        }
        let checked = try graph.checkParams(params, against: spec.params, of: "flow '\(name)'")
        let route = try graph.route(spec.start)
        var screenParams: InputParams = [:]
        for (key, value) in checked where route.params[key] != nil { screenParams[key] = value.input }
        let op: Operation = switch spec.presentation {
        case .sheet: .present(route: spec.start, params: screenParams, style: "sheet")
        case .cover: .present(route: spec.start, params: screenParams, style: "cover")
        default: .push(route: spec.start, params: screenParams)
        }
        let screenID = try execute(op, on: &txn.tree, ids: &txn.ids) ?? ""
        let flowID = txn.ids.issue()
        txn.tree.flows[screenID] = FlowInstance(
            id: flowID, flow: name, firstScreen: screenID, tab: txn.tree.isTabbed ? txn.tree.current.name : "",
            params: checked, onOutput: onOutput, pending: pending, resumeOn: pending == nil ? "" : resumeOn)
        txn.touchedTree = true
        txn.startedFlows.append(screenID)
        txn.log("  started flow '\(name)' (\(flowID)) at \(spec.start) (\(screenID))")
        try checkGuards(&txn)
        return flowID
    }

    /// Finishes the instance whose first screen is `flowScreen` with `output`: its screens go, its on-output
    /// handler runs from the screen below it, and a kept request resumes on the guard's output.
    func finishFlow(at flowScreen: String, output: String, params: InputParams, event: HandlerContext, _ txn: inout Transaction) throws(NavigationError) {
        guard let instance = txn.tree.flows[flowScreen], let position = txn.tree.position(of: flowScreen), let spec = graph.flows[instance.flow] else {
            throw .notInFlow("finish '\(output)': the flow has already ended")
        }
        guard let declaration = spec.outputs[output] else {
            throw .unknownOutput("flow '\(instance.flow)' has no output '\(output)'; its outputs: \(spec.outputOrder.joined(separator: ", "))")
        }
        let checked = try graph.checkParams(params, against: declaration, of: "output '\(output)' of flow '\(instance.flow)'")
        cut(&txn.tree, at: position, ids: &txn.ids)
        txn.removedScreens = true
        txn.tree.flows[flowScreen] = nil
        txn.finished.append(FlowEnd(id: instance.id, flow: instance.flow, output: output, params: checked))
        txn.touchedTree = true
        txn.log("  flow '\(instance.flow)' (\(instance.id)) finished with '\(output)'")
        let top = txn.tree.topScreen
        if case .actions(let actions)? = instance.onOutput[output] {
            let parent = txn.tree.innermostFlow(at: txn.tree.topPosition)
            let context = HandlerContext(
                event: event.event, eventName: event.eventName, sourceID: top.id, screen: top.params,
                flowScreen: parent?.firstScreen, flowParams: parent?.params, output: checked)
            try runActions(actions, context, label: "on-output '\(output)' of flow '\(instance.flow)'", &txn)
        }
        if let pending = instance.pending, output == instance.resumeOn {
            var attempt = txn
            attempt.log("  resuming the request kept by flow '\(instance.flow)' (\(instance.id))")
            do {
                try run(pending, &attempt)
                txn = attempt
                txn.resumed = true
            } catch {
                txn.notes.append("flow '\(instance.flow)' (\(instance.id)) finished with '\(output)', but the request its guard kept failed and was dropped: \(error)")
                txn.log("  the kept request failed and is dropped: \(error)")
            }
        }
    }

    /// The Finish method: the innermost flow enclosing the top screen finishes with `output`.
    func finishTop(output: String, params: InputParams, _ txn: inout Transaction) throws(NavigationError) {
        let top = txn.tree.topScreen
        guard let instance = txn.tree.innermostFlow(at: txn.tree.topPosition) else {
            throw .notInFlow("no flow encloses the top screen '\(top.route)' (\(top.id)); Finish ends a flow begun with Start or a start action")
        }
        let context = HandlerContext(event: [:], eventName: "finish", sourceID: top.id, screen: top.params, flowScreen: instance.firstScreen, flowParams: instance.params, output: nil)
        try finishFlow(at: instance.firstScreen, output: output, params: params, event: context, &txn)
    }

    /// Removes the screen at `position` of the path with everything above it: popped back to the screen below,
    /// or its layer dismissed; a base stack's root gives way to the tab's root route.
    func cut(_ tree: inout Tree, at position: (layer: Int, index: Int), ids: inout IdCounter) {
        if position.layer + 1 < tree.current.layers.count { tree.current.layers.removeSubrange((position.layer + 1)...) }
        if position.index > 0 {
            tree.current.layers[position.layer].screens.removeSubrange(position.index...)
        } else if position.layer > 0 {
            tree.current.layers.removeLast()
        } else {
            let tabRoot = tree.isTabbed ? graph.tabIndex(named: tree.current.name).map { graph.tabs[$0].rootRoute } : graph.rootRoute
            let root = tabRoot ?? tree.current.layers[0].screens[0].route
            tree.current.layers[0].screens = [Screen(id: ids.issue(), route: root, params: [:])]
        }
    }
}

extension Tree {
    /// Every flow instance, outer before inner, as GetFlows lists them.
    var flowInfos: [FlowInfo] {
        orderedFlows.map { FlowInfo(id: $0.id, flow: $0.flow, firstScreen: $0.firstScreen, params: $0.params) }
    }
}
