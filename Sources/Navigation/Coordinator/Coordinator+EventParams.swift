// What a view needs to offer an event: the handler that would run, and the params that handler reads from
// the event, typed by what each one fills (so a view can build a form for `failed {message}`).

/// One event a screen can send with the params its handler reads, as GetEventParams lists it.
public struct EventParamsInfo: Hashable, Sendable {
    /// The event's name, and where its handler is: `route`, `flow:NAME`, `tab` or `app` (as GetEvents says).
    public var event, scope: String
    /// The `$event.NAME` params the handler reads, in the order it reads them, each with the declared type of
    /// the route param, flow param, output param or fact it fills; all required (a missing one is `InvalidParams`).
    public var params: ParamDeclaration

    /// An event handled in `scope` that reads `params`.
    public init(event: String, scope: String, params: ParamDeclaration = ParamDeclaration()) {
        self.event = event
        self.scope = scope
        self.params = params
    }
}

extension Coordinator {
    /// The events a screen can send (`""`: the top) with the params each handler reads: GetEvents' list, in its
    /// order, each with what `eventReads` finds. `StaleSource` for a screen that is not on the path.
    public func eventParams(source: String) throws(NavigationError) -> [EventParamsInfo] {
        let (_, position) = try pathScreen(source, in: state.tree)
        let flows = state.tree.enclosingFlows(at: position)
        return handledEvents(at: position).map { found in
            var reads = ParamDeclaration()
            if case .actions(let actions) = found.handler { collectEventReads(actions, flows: flows[...], into: &reads) }
            return EventParamsInfo(event: found.event, scope: found.scope, params: reads)
        }
    }

    /// Each event a screen at `position` can send once, with the handler that would run and its scope's label:
    /// inner scopes first, `none` handlers left out. GetEvents and GetEventParams both list this.
    func handledEvents(at position: (layer: Int, index: Int)) -> [(event: String, scope: String, handler: Handler)] {
        var seen: Set<String> = []
        var result: [(event: String, scope: String, handler: Handler)] = []
        for scope in scopes(at: position, in: state.tree) {
            let label = scope.label.hasPrefix("route") ? "route" : scope.label.hasPrefix("tab") ? "tab" : scope.label
            for event in scope.handlers.order where seen.insert(event).inserted {
                if let handler = scope.handlers.byEvent[event], case .actions = handler {
                    result.append((event, label, handler))
                }
            }
        }
        return result
    }

    /// Adds the `$event.NAME` references of `actions` to `reads`, typed by what they fill. A `finish` ends the
    /// first of `flows` (innermost first, as it would when the handler runs); the `on-output` handler it runs
    /// reads the same event, so its references count too, with the next flow out for a `finish` inside it.
    private func collectEventReads(_ actions: [Action], flows: ArraySlice<FlowInstance>, into reads: inout ParamDeclaration) {
        for action in actions {
            switch action {
            case .push(let route, let params), .replace(let route, let params), .present(let route, _, let params):
                note(params, types: graph.routes[route]?.params ?? [:], into: &reads)
            case .setStack(let screens):
                for screen in screens { note(screen.params, types: graph.routes[screen.route]?.params ?? [:], into: &reads) }
            case .start(let flow, let params, _):
                // The on-output handlers run when the flow finishes, on another event: they read that one's params.
                note(params, types: graph.flows[flow]?.params.types ?? [:], into: &reads)
            case .finish(let output, let params):
                guard let instance = flows.first else { continue }
                note(params, types: graph.flows[instance.flow]?.outputs[output]?.types ?? [:], into: &reads)
                if case .actions(let next)? = instance.onOutput[output] {
                    collectEventReads(next, flows: flows.dropFirst(), into: &reads)
                }
            case .setFacts(let values):
                note(values, types: graph.facts.mapValues(\.type), into: &reads)
            case .pop, .popToRoot, .dismiss, .dismissAll, .back, .popTo, .selectTab, .open:
                break
            }
        }
    }

    /// Adds each `$event.NAME` among `templates` (by key, sorted) not read yet, with the type of the key it fills.
    private func note(_ templates: ParamTemplates, types: [String: ParamType], into reads: inout ParamDeclaration) {
        for key in templates.keys.sorted() {
            guard case .event(let name)? = templates[key], reads.types[name] == nil, let type = types[key] else { continue }
            reads.types[name] = type
            reads.order.append(name)
            reads.required.insert(name)
        }
    }
}
