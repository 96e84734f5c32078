import Navigation

// Reading `on:` mappings: event -> `none`, an action, or a list of actions; each action checked against the
// routes, flows, tabs, facts and outputs it names.

extension RouteFileReader {
    /// What a handler may refer to where it is written.
    struct HandlerPlace {
        /// The flow whose `on:` this is: its `finish` must name one of that flow's outputs.
        var flow: FlowSpec?
        /// Inside `on-output`: the output's params, which `$output.NAME` may read.
        var output: ParamDeclaration?
    }

    /// The order messages list the actions in: those on the screen's stack and layers, then the rest.
    private static let listingOrder: [OperationKind] = [
        .push, .replace, .present, .pop, .popToRoot, .dismiss, .dismissAll, .back, .popTo, .selectTab, .open, .setStack,
        .start, .finish, .setFacts,
    ]
    /// The ops a route file's action may run, every one the op table gives a verb (`routeFileVerb`).
    private static let actionKinds = (listingOrder + OperationKind.allCases.filter { !listingOrder.contains($0) })
        .filter { $0.declaration.routeFileVerb != nil }
    /// Every action's verb.
    static let verbs = actionKinds.compactMap(\.declaration.routeFileVerb)
    /// The keys an action takes beside its verb: `params` (push, replace, finish), `style` (present), `on-output` (start).
    private static let paramsKey = ["params"], presentKeys = ["style", "params"], startKeys = ["params", "on-output"]
    /// The verbs of the actions that take no argument, written as bare strings (`- pop`).
    static let bareVerbs = actionKinds.filter(\.declaration.arguments.isEmpty).compactMap(\.declaration.routeFileVerb)

    /// Reads every `on:` of the file into `graph`.
    mutating func readAllHandlers(into input: consuming RouteGraph) throws(RouteFileError) -> RouteGraph {
        // A `finish` outside a flow names an output of the first flow that declares it: looked
        // up once per output name here, not once per flow for each such `finish`.
        for name in input.flowOrder.reversed() {
            for (output, declaration) in input.flows[name]?.outputs ?? [:] { outputsByName[output] = declaration }
        }
        routeTargets.reserveCapacity(input.routes.count)
        for (name, spec) in input.routes { routeTargets[name] = RouteTarget(spec) }
        // Every handler is read against the graph first, then put in place: filling in a graph that is still read
        // would copy its 1,000 routes.
        var read: [Handlers] = []
        read.reserveCapacity(handlerNodes.count)
        for (scope, node, path) in handlerNodes {
            let place = if case .flow(let name) = scope { HandlerPlace(flow: input.flows[name]) } else { HandlerPlace() }
            read.append(try readHandlers(node, path, input, place))
        }
        var graph = input
        for ((scope, _, _), handlers) in zip(handlerNodes, read) {
            switch scope {
            case .route(let name): graph.routes[name]?.on = handlers
            case .flow(let name): graph.flows[name]?.on = handlers
            case .tab(let index): graph.tabs[index].on = handlers
            case .app: graph.on = handlers
            }
        }
        return graph
    }

    func readHandlers(_ node: YAMLNode, _ path: @autoclosure () -> String, _ graph: RouteGraph, _ place: HandlerPlace) throws(RouteFileError) -> Handlers {
        var handlers = Handlers()
        let pairs = try mapping(node, path(), keys: [])
        handlers.byEvent.reserveCapacity(pairs.count)
        handlers.order.reserveCapacity(pairs.count)
        for (event, handlerNode) in pairs {
            _ = try name(event, join(path(), event), handlerNode, what: "event")
            handlers.byEvent[event] = try readHandler(handlerNode, join(path(), event), graph, place)
            handlers.order.append(event)
        }
        return handlers
    }

    func readHandler(_ node: YAMLNode, _ path: @autoclosure () -> String, _ graph: RouteGraph, _ place: HandlerPlace) throws(RouteFileError) -> Handler {
        if case .scalar(let scalar) = node, scalar.string == "none" { return .ignore }
        if case .sequence(let sequence) = node {
            guard sequence.count > 0 else { throw fail(path(), node, "an empty list of actions; write `none` to ignore the event") }
            var actions: [Action] = []
            for (index, item) in sequence.enumerated() { actions.append(try readAction(item, "\(path())[\(index)]", graph, place)) }
            return .actions(actions)
        }
        return .actions([try readAction(node, path(), graph, place)])
    }

    func readAction(_ node: YAMLNode, _ path: @autoclosure () -> String, _ graph: RouteGraph, _ place: HandlerPlace) throws(RouteFileError) -> Action {
        if case .scalar(let scalar) = node {
            guard let kind = OperationKind(routeFileVerb: scalar.string), let action = Action(bare: kind) else {
                throw fail(path(), node, "'\(scalar.string)' is not an action; bare actions are \(Self.bareVerbs.joined(separator: ", ")), others are maps such as { push: ROUTE }")
            }
            return action
        }
        let pairs = try mapping(node, path(), keys: [])
        var found: (verb: String, target: YAMLNode, kind: OperationKind)?
        var verbCount = 0
        for (key, value) in pairs {
            guard let kind = OperationKind(routeFileVerb: key) else { continue }
            verbCount += 1
            found = (key, value, kind)
        }
        guard verbCount == 1, let (verb, target, kind) = found else {
            let verbKeys = pairs.filter { OperationKind(routeFileVerb: $0.0) != nil }
            throw fail(path(), node, "an action is a map with exactly one verb (\(Self.verbs.joined(separator: ", "))); found \(verbKeys.isEmpty ? "none" : verbKeys.map(\.0).joined(separator: ", "))")
        }
        let allowed: [String] = switch kind {
        case .push, .replace, .finish: Self.paramsKey
        case .present: Self.presentKeys
        case .start: Self.startKeys
        default: []
        }
        // The keys beside the verb (each at most once: a mapping's keys are unique).
        var paramsNode: YAMLNode?, styleNode: YAMLNode?, onOutputNode: YAMLNode?
        for (key, value) in pairs where key != verb {
            guard allowed.contains(key) else {
                let takes = allowed.isEmpty ? "takes no other keys" : "takes \(allowed.joined(separator: ", "))"
                throw fail(join(path(), key), value, "unknown key '\(key)'; \(verb) \(takes)")
            }
            switch key {
            case "params": paramsNode = value
            case "style": styleNode = value
            default: onOutputNode = value
            }
        }
        func verbPath() -> String { join(path(), verb) }
        switch kind {
        case .push, .replace, .present:
            // The route is read in place: a `RouteSpec` is not copied out for each action.
            let (name, route) = try route(target, verbPath(), graph)
            let params = try templates(paramsNode, join(path(), "params"), route.declaration, "route '\(name)'", place, near: node)
            if kind == .push {
                guard route.presentations.contains(.push) else {
                    throw fail(verbPath(), target, "route '\(name)' cannot be pushed; its presentations: \(route.presentations.map(\.rawValue).sorted().joined(separator: ", "))")
                }
                return .push(route: name, params: params)
            }
            if kind == .replace { return .replace(route: name, params: params) }
            guard let styleNode else {
                throw fail(path(), node, "present needs `style: sheet` or `style: cover`")
            }
            let styleName = try string(styleNode, join(path(), "style"))
            guard let style = ModalStyle(rawValue: styleName) else {
                throw fail(join(path(), "style"), styleNode, "unknown style '\(styleName)'; use sheet or cover")
            }
            guard route.presentations.contains(style.presentation) else {
                throw fail(join(path(), "style"), styleNode, "route '\(name)' cannot be shown as \(styleName); its presentations: \(route.presentations.map(\.rawValue).sorted().joined(separator: ", "))")
            }
            return .present(route: name, style: style, params: params)
        case .pop, .popToRoot, .dismiss, .dismissAll, .back:
            throw fail(verbPath(), target, "'\(verb)' takes no argument; write it as a bare string: - \(verb)")
        case .popTo:
            return .popTo(try string(target, verbPath()))
        case .selectTab:
            let tab = try string(target, verbPath())
            guard tabIndexes[tab] != nil else {
                throw fail(verbPath(), target, graph.isTabbed ? "no tab '\(tab)'; tabs: \(graph.tabs.map(\.name).joined(separator: ", "))" : "the app has no tabs")
            }
            return .selectTab(tab)
        case .open:
            let link = try string(target, verbPath())
            if graph.states[link.hasPrefix("navd:") ? String(link.dropFirst(5)) : link] == nil {
                do { try graph.checkLinkOpens(link, links: links) } catch { throw fail(verbPath(), target, "'\(link)' is neither a named state nor a link that opens: \(error.message)") }
            }
            return .open(link)
        case .setStack:
            guard case .sequence(let sequence) = target, sequence.count > 0 else {
                throw fail(verbPath(), target, "expected a non-empty list of screens, each ROUTE or {route: ROUTE, params: {…}}")
            }
            var screens: [ScreenTemplate] = []
            for (index, item) in sequence.enumerated() {
                func itemPath() -> String { "\(verbPath())[\(index)]" }
                if case .scalar = item {
                    let (name, route) = try route(item, itemPath(), graph)
                    screens.append(ScreenTemplate(route: name, params: try templates(nil, itemPath(), route.declaration, "route '\(name)'", place, near: item)))
                    continue
                }
                var routeNode: YAMLNode?
                var paramsNode: YAMLNode?
                for (key, value) in try mapping(item, itemPath(), keys: ["route", "params"]) {
                    if key == "route" { routeNode = value } else { paramsNode = value }
                }
                guard let routeNode else { throw fail(itemPath(), item, "a screen needs `route: ROUTE`") }
                let (name, route) = try route(routeNode, join(itemPath(), "route"), graph)
                screens.append(ScreenTemplate(route: name, params: try templates(paramsNode, join(itemPath(), "params"), route.declaration, "route '\(name)'", place, near: item)))
            }
            return .setStack(screens)
        case .start:
            let flowName = try string(target, verbPath())
            guard let flow = graph.flows[flowName] else {
                throw fail(verbPath(), target, "no flow '\(flowName)' under `flows:`")
            }
            let params = try templates(paramsNode, join(path(), "params"), flow.params, "flow '\(flowName)'", place, near: node)
            var onOutput: [String: Handler] = [:]
            if let outputsNode = onOutputNode {
                for (output, handlerNode) in try mapping(outputsNode, join(path(), "on-output"), keys: []) {
                    func outputPath() -> String { join(join(path(), "on-output"), output) }
                    guard let declaration = flow.outputs[output] else {
                        throw fail(outputPath(), handlerNode, "flow '\(flowName)' has no output '\(output)'; its outputs: \(flow.outputOrder.joined(separator: ", "))")
                    }
                    onOutput[output] = try readHandler(handlerNode, outputPath(), graph, HandlerPlace(flow: nil, output: declaration))
                }
            }
            return .start(flow: flowName, params: params, onOutput: onOutput)
        case .finish:
            let output = try string(target, verbPath())
            let declaration: ParamDeclaration
            if let flow = place.flow {
                guard let found = flow.outputs[output] else {
                    throw fail(verbPath(), target, "flow '\(flow.name)' has no output '\(output)'; its outputs: \(flow.outputOrder.joined(separator: ", "))")
                }
                declaration = found
            } else {
                guard let found = outputsByName[output] else {
                    throw fail(verbPath(), target, "no flow declares output '\(output)'")
                }
                declaration = found
            }
            return .finish(output: output, params: try templates(paramsNode, join(path(), "params"), declaration, "output '\(output)'", place, near: node))
        case .send, .revert:
            // Not a route file's action: `OperationKind(routeFileVerb:)` never gives it.
            throw fail(verbPath(), target, "'\(verb)' is not an action")
        case .setFacts:
            var facts: ParamTemplates = [:]
            for (fact, valueNode) in try mapping(target, verbPath(), keys: []) {
                guard let spec = graph.facts[fact] else {
                    throw fail(join(verbPath(), fact), valueNode, "no fact '\(fact)' under `facts:`")
                }
                facts[fact] = try template(valueNode, join(verbPath(), fact), spec.type, place)
            }
            return .setFacts(facts)
        }
    }
}

extension Action {
    /// The actions that take no argument, each written as its bare verb (`- pop`).
    static let bare: [Action] = [.pop, .popToRoot, .dismiss, .dismissAll, .back]

    /// The action a bare verb names: the one of `bare` whose op is `kind` (`Action.kind` is the one
    /// table of which action runs which op); nil for the ops that take an argument.
    init?(bare kind: OperationKind) {
        guard let action = Self.bare.first(where: { $0.kind == kind }) else { return nil }
        self = action
    }
}
