// Events: finding the handler through the four scopes, binding references, running the actions.

/// One event a screen can send, as GetEvents lists it.
public struct EventInfo: Hashable, Sendable {
    /// The event's name, and where its handler is: `route`, `flow:NAME`, `tab` or `app`.
    public var event, scope: String

    /// An event handled in `scope`.
    public init(event: String, scope: String) {
        self.event = event
        self.scope = scope
    }
}

extension Coordinator {
    /// The screen `source` names on the path ("" for the top) and its position, or `StaleSource`.
    func pathScreen(_ source: String, in tree: Tree) throws(NavigationError) -> (screen: Screen, position: (layer: Int, index: Int)) {
        let position: (layer: Int, index: Int)
        if source.isEmpty {
            position = tree.topPosition
        } else {
            guard let found = tree.position(of: source) else {
                throw .staleSource("screen '\(source)' is not on the path\(tabPhrase(tree)) (it was closed, or it is in another tab); send events from a screen on the path, or \"\" for the top")
            }
            position = found
        }
        return (tree.current.layers[position.layer].screens[position.index], position)
    }

    /// The scopes that may handle an event from the screen at `position`, innermost first, with their labels.
    func scopes(at position: (layer: Int, index: Int), in tree: Tree) -> [(label: String, handlers: Handlers)] {
        let screen = tree.current.layers[position.layer].screens[position.index]
        var result: [(label: String, handlers: Handlers)] = []
        result.append(("route '\(screen.route)'", index.routeHandlers[screen.route] ?? Handlers()))
        for instance in tree.enclosingFlows(at: position) {
            result.append(("flow:\(instance.flow)", index.flowHandlers[instance.flow] ?? Handlers()))
        }
        if tree.isTabbed {
            result.append(("tab '\(tree.current.name)'", index.tabHandlers[tree.current.name] ?? Handlers()))
        }
        result.append(("app", graph.on))
        return result
    }

    /// Resolves and runs `event` from `source`: StaleSource, StaleRevision, UnhandledEvent, then the actions.
    func send(source: String, event: String, params: InputParams, expectedRevision: UInt64, _ txn: inout Transaction) throws(NavigationError) {
        let (screen, position) = try pathScreen(source, in: txn.tree)
        try checkExpected(expectedRevision)
        txn.log("event '\(event)' from \(screen.route) (\(screen.id))")
        var searched: [String] = []
        // The route's own scope first: the usual case costs one lookup and no walk down the path.
        var found: (handler: Handler, label: String)?
        if let handler = index.routeHandlers[screen.route]?.byEvent[event] {
            found = (handler, "route '\(screen.route)'")
        } else {
            txn.log("  route '\(screen.route)': no handler")
            for scope in scopes(at: position, in: txn.tree).dropFirst() {
                if let handler = scope.handlers.byEvent[event] {
                    found = (handler, scope.label)
                    break
                }
                txn.log("  \(scope.label): no handler")
                searched.append(scope.label)
            }
            searched.insert("route '\(screen.route)'", at: 0)
        }
        guard let (handler, label) = found else {
            throw .unhandledEvent("no handler for event '\(event)' from route '\(screen.route)' (\(screen.id)); searched \(searched.joined(separator: ", ")); add `on: { \(event): … }` to one of them, or send an event listed by GetEvents")
        }
        guard case .actions(let actions) = handler else {
            txn.log("  \(label): none (handled, ignored)")
            return
        }
        txn.log("  \(label): \(actions.map(\.verb).joined(separator: ", "))")
        let flow = txn.tree.innermostFlow(at: position)
        let context = HandlerContext(
            event: params, eventName: event, sourceID: screen.id, screen: screen.params,
            flowScreen: flow?.firstScreen, flowParams: flow?.params, output: nil)
        try runActions(actions, context, label: "'\(event)' in \(label)", &txn)
    }

    /// The events a screen can send: each once, inner scopes first, `none` handlers left out.
    public func events(source: String) throws(NavigationError) -> [EventInfo] {
        let (_, position) = try pathScreen(source, in: state.tree)
        return handledEvents(at: position).map { EventInfo(event: $0.event, scope: $0.scope) }
    }

    /// Runs `actions` in order on `txn`, each counted against `maxApplyOps` and checked by the guards.
    func runActions(_ actions: [Action], _ context: HandlerContext, label: String, _ txn: inout Transaction) throws(NavigationError) {
        for (index, action) in actions.enumerated() {
            do {
                try countStep(&txn)
                try run(action, context, &txn)
            } catch {
                if txn.violation != nil { throw error }
                throw error.prefixed("handler of \(label), action \(index + 1) (\(action.verb)): ")
            }
        }
    }

    /// `LimitExceeded` once a change holds more steps than `maxApplyOps`.
    func countStep(_ txn: inout Transaction) throws(NavigationError) {
        txn.steps += 1
        if txn.steps > graph.limits.maxApplyOps {
            throw .limitExceeded("the change would run more than \(graph.limits.maxApplyOps) ops and actions (max-apply-ops)")
        }
    }

    func run(_ action: Action, _ context: HandlerContext, _ txn: inout Transaction) throws(NavigationError) {
        txn.log("    \(action.verb)")
        switch action {
        case .push(let route, let params): try runTreeOp(.push(route: route, params: try bind(params, context)), &txn)
        case .replace(let route, let params): try runTreeOp(.replace(route: route, params: try bind(params, context)), &txn)
        case .present(let route, let style, let params):
            try runTreeOp(.present(route: route, params: try bind(params, context), style: style.rawValue), &txn)
        case .pop: try runTreeOp(.pop, &txn)
        case .popToRoot: try runTreeOp(.popToRoot, &txn)
        case .dismiss: try runTreeOp(.dismiss, &txn)
        case .dismissAll: try runTreeOp(.dismissAll, &txn)
        case .back: try runTreeOp(.back, &txn)
        case .popTo(let target): try runTreeOp(.popTo(target: target), &txn)
        case .selectTab(let tab): try runTreeOp(.selectTab(tab), &txn)
        case .open(let target): try runTreeOp(.open(target), &txn)
        case .setStack(let screens):
            var requests: [ScreenRequest] = []
            for screen in screens { requests.append(ScreenRequest(route: screen.route, params: try bind(screen.params, context))) }
            try runTreeOp(.setStack(requests), &txn)
        case .start(let flow, let params, let onOutput):
            _ = try startFlow(flow, params: try bind(params, context), onOutput: onOutput, &txn)
        case .finish(let output, let params):
            guard let flowScreen = context.flowScreen, txn.tree.flows[flowScreen] != nil, txn.tree.position(of: flowScreen) != nil else {
                throw .notInFlow(context.flowScreen == nil
                    ? "finish '\(output)': no flow encloses the source screen (\(context.sourceID)); start one first, or handle the event without finish"
                    : "finish '\(output)': the flow that enclosed the source screen (\(context.sourceID)) has already ended")
            }
            try finishFlow(at: flowScreen, output: output, params: try bind(params, context), event: context, &txn)
        case .setFacts(let values):
            try setFacts(try bind(values, context), &txn)
        }
    }

    /// The params a handler's templates stand for, or `InvalidParams` naming a missing reference.
    func bind(_ templates: ParamTemplates, _ context: HandlerContext) throws(NavigationError) -> InputParams {
        var params: InputParams = [:]
        for (key, template) in templates {
            switch template {
            case .literal(let value): params[key] = value.input
            case .event(let name):
                guard let value = context.event[name] else {
                    throw .invalidParams("'\(key)' reads $event.\(name), but event '\(context.eventName)' came without param '\(name)'; send it with \(name)=VALUE")
                }
                params[key] = value
            case .screen(let name):
                guard let value = context.screen[name] else {
                    throw .invalidParams("'\(key)' reads $screen.\(name), but the source screen (\(context.sourceID)) has no param '\(name)'")
                }
                params[key] = value.input
            case .flow(let name):
                guard let flowParams = context.flowParams else {
                    throw .invalidParams("'\(key)' reads $flow.\(name), but no flow encloses the source screen (\(context.sourceID))")
                }
                guard let value = flowParams[name] else {
                    throw .invalidParams("'\(key)' reads $flow.\(name), but the enclosing flow was started without param '\(name)'")
                }
                params[key] = value.input
            case .output(let name):
                guard let value = context.output?[name] else {
                    throw .invalidParams("'\(key)' reads $output.\(name), but the flow finished without output param '\(name)'")
                }
                params[key] = value.input
            }
        }
        return params
    }
}
