import Navigation

// Reading `facts:`, `flows:` and `guards:`, and the checks of what they say about each other and the routes.

/// Where an `on:` mapping sits: its scope decides what its `finish` may name.
enum HandlerScope {
    case route(String)
    case flow(String)
    case tab(Int)
    case app
}

extension RouteFileReader {
    /// `facts:`: each `NAME: { type: TYPE, default: VALUE }` (default: false, 0, 0.0 or "").
    func readFacts(_ node: YAMLNode) throws(RouteFileError) -> ([String: FactSpec], [String]) {
        var facts: [String: FactSpec] = [:]
        var order: [String] = []
        for (factName, factNode) in try mapping(node, "facts", keys: []) {
            let path = join("facts", factName)
            _ = try name(factName, path, factNode, what: "fact")
            var type: ParamType?
            var defaultNode: YAMLNode?
            for (key, value) in try mapping(factNode, path, keys: RouteFileKeys.fact) {
                if key == "type" {
                    let text = try string(value, join(path, key))
                    guard let parsed = ParamType(rawValue: text) else {
                        throw fail(join(path, key), value, "unknown type '\(text)'; use string, int, double or bool")
                    }
                    type = parsed
                }
                if key == "default" { defaultNode = value }
            }
            guard let type else { throw fail(path, factNode, "a fact needs `type: string|int|double|bool`") }
            var value: ParamValue = switch type {
            case .bool: .bool(false)
            case .int: .int(0)
            case .double: .double(0)
            case .string: .string("")
            }
            if let defaultNode {
                guard let literal = literal(defaultNode, as: type) else {
                    throw fail(join(path, "default"), defaultNode, "the default of fact '\(factName)' must be \(type.rawValue)")
                }
                value = literal
            }
            facts[factName] = FactSpec(name: factName, type: type, defaultValue: value)
            order.append(factName)
        }
        return (facts, order)
    }

    /// A YAML scalar as a value of `type`, or nil.
    func literal(_ node: YAMLNode, as type: ParamType) -> ParamValue? {
        guard case .scalar(let scalar) = node else { return nil }
        let isString = scalar.isString
        switch type {
        case .string: return .string(scalar.string)
        case .bool: return isString ? nil : node.bool.map(ParamValue.bool)
        case .int: return isString ? nil : node.int.map { .int(Int64($0)) }
        case .double: return isString ? nil : (node.float ?? node.int.map(Double.init)).map(ParamValue.double)
        }
    }

    /// `flows:`: each `NAME: { start, presentation, params, outputs, on }`; the `on:` is read later.
    mutating func readFlows(_ node: YAMLNode) throws(RouteFileError) -> ([String: FlowSpec], [String]) {
        var flows: [String: FlowSpec] = [:]
        var order: [String] = []
        for (flowName, flowNode) in try mapping(node, "flows", keys: []) {
            let path = join("flows", flowName)
            _ = try name(flowName, path, flowNode, what: "flow")
            var spec = FlowSpec(name: flowName, start: "")
            for (key, value) in try mapping(flowNode, path, keys: RouteFileKeys.flow) {
                let keyPath = join(path, key)
                switch key {
                case "start": spec.start = try name(try string(value, keyPath), keyPath, value, what: "route")
                case "presentation":
                    let text = try string(value, keyPath)
                    guard let presentation = Presentation(rawValue: text), presentation != .root else {
                        throw fail(keyPath, value, "unknown presentation '\(text)'; use push, sheet or cover")
                    }
                    spec.presentation = presentation
                case "params": spec.params = try readParams(value, keyPath)
                case "outputs":
                    for (outputName, outputNode) in try mapping(value, keyPath, keys: []) {
                        let outputPath = join(keyPath, outputName)
                        _ = try name(outputName, outputPath, outputNode, what: "output")
                        var declaration = ParamDeclaration()
                        if !isEmpty(outputNode) {
                            for (outputKey, paramsNode) in try mapping(outputNode, outputPath, keys: RouteFileKeys.flowOutput) {
                                declaration = try readParams(paramsNode, join(outputPath, outputKey))
                            }
                        }
                        spec.outputs[outputName] = declaration
                        spec.outputOrder.append(outputName)
                    }
                case "on": handlerNodes.append((.flow(flowName), value, keyPath))
                default: break
                }
            }
            guard !spec.start.isEmpty else { throw fail(path, flowNode, "flow '\(flowName)' needs `start: ROUTE` (the route of its first screen)") }
            flows[flowName] = spec
            order.append(flowName)
            flowNodes[flowName] = flowNode
        }
        return (flows, order)
    }

    /// Whether `node` is an empty value (`{}`, `~` or nothing).
    func isEmpty(_ node: YAMLNode) -> Bool {
        if case .mapping(let mapping) = node { return mapping.count == 0 }
        if case .scalar(let scalar) = node { return scalar.isEmptyOrTaggedNull }
        return false
    }

    /// `guards:`: each `FACT: { start: FLOW, resume-on: OUTPUT }`.
    mutating func readGuards(_ node: YAMLNode) throws(RouteFileError) -> [String: GuardSpec] {
        var guards: [String: GuardSpec] = [:]
        for (fact, guardNode) in try mapping(node, "guards", keys: []) {
            let path = join("guards", fact)
            var flow: String?
            var resumeOn: String?
            for (key, value) in try mapping(guardNode, path, keys: RouteFileKeys.guardRule) {
                if key == "start" { flow = try name(try string(value, join(path, key)), join(path, key), value, what: "flow") }
                if key == "resume-on" { resumeOn = try name(try string(value, join(path, key)), join(path, key), value, what: "output") }
            }
            guard let flow, let resumeOn else {
                throw fail(path, guardNode, "a guard needs `start: FLOW` and `resume-on: OUTPUT`")
            }
            guards[fact] = GuardSpec(fact: fact, flow: flow, resumeOn: resumeOn)
            guardNodes[fact] = guardNode
        }
        return guards
    }

    /// What facts, flows, guards and `requires` say about each other and the routes.
    func checkCoordination(_ graph: RouteGraph) throws(RouteFileError) {
        for name in graph.routeOrder {
            guard let spec = graph.routes[name] else { continue }
            for fact in spec.requires {
                guard let factSpec = graph.facts[fact] else {
                    throw fail("routes.\(name).requires", requiresNodes[name], "no fact '\(fact)' under `facts:`")
                }
                guard factSpec.type == .bool else {
                    throw fail("routes.\(name).requires", requiresNodes[name], "fact '\(fact)' is \(factSpec.type.rawValue); `requires` names bool facts only")
                }
            }
        }
        for (index, tab) in graph.tabs.enumerated() where !(graph.routes[tab.rootRoute]?.requires.isEmpty ?? true) {
            throw fail("tabs[\(index)].root", rawNodes["tabs"], "root route '\(tab.rootRoute)' has `requires`; a tab's root must always be showable")
        }
        if let root = graph.rootRoute, !(graph.routes[root]?.requires.isEmpty ?? true) {
            throw fail("root", rawNodes["root"], "root route '\(root)' has `requires`; the root must always be showable")
        }
        for name in graph.flowOrder {
            guard let flow = graph.flows[name] else { continue }
            let path = "flows.\(name)"
            guard let start = graph.routes[flow.start] else {
                throw fail("\(path).start", flowNodes[name], "no route '\(flow.start)' under `routes:`")
            }
            if !start.presentations.contains(flow.presentation) {
                throw fail("\(path).presentation", flowNodes[name], "flow '\(name)' shows '\(flow.start)' as \(flow.presentation.rawValue), but that route's presentations lack \(flow.presentation.rawValue)")
            }
            let declared = { (param: String) in flow.params.required.contains(param) && flow.params.types[param] == start.params[param] }
            if let param = Self.firstMissing(start.declaration, isGiven: declared) {
                throw fail("\(path).params", flowNodes[name], "start route '\(flow.start)' requires param '\(param)' (\(start.params[param]!.rawValue)); declare it as a required param of the flow")
            }
        }
        for fact in graph.guards.keys.sorted() {
            let guardSpec = graph.guards[fact]!
            let path = "guards.\(fact)"
            guard let factSpec = graph.facts[fact], factSpec.type == .bool else {
                throw fail(path, guardNodes[fact], "no bool fact '\(fact)' under `facts:`")
            }
            guard let flow = graph.flows[guardSpec.flow] else {
                throw fail("\(path).start", guardNodes[fact], "no flow '\(guardSpec.flow)' under `flows:`")
            }
            guard flow.outputs[guardSpec.resumeOn] != nil else {
                throw fail("\(path).resume-on", guardNodes[fact], "flow '\(guardSpec.flow)' has no output '\(guardSpec.resumeOn)'; its outputs: \(flow.outputOrder.joined(separator: ", "))")
            }
            if let missing = Self.firstMissing(flow.params, isGiven: { _ in false }) {
                throw fail("\(path).start", guardNodes[fact], "a guard starts flow '\(guardSpec.flow)' without params, but it requires param '\(missing)'")
            }
            if graph.routes[flow.start]?.requires.contains(fact) == true {
                throw fail("\(path).start", guardNodes[fact], "flow '\(guardSpec.flow)' starts at route '\(flow.start)', which itself requires '\(fact)': the guard would loop")
            }
        }
    }
}
