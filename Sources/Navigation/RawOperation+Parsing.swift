extension RawOperation {
    /// The argument names each Apply operation takes; `params` may be left out.
    static let signatures: [(name: String, arguments: [String])] = [
        ("push", ["route", "params"]), ("pop", []), ("popto", ["target"]), ("poptoroot", []),
        ("replace", ["route", "params"]), ("setstack", ["screens"]), ("present", ["route", "params", "style"]),
        ("dismiss", []), ("dismissall", []), ("back", []), ("selecttab", ["tab"]), ("open", ["target"]),
        ("send", ["event", "source", "params"]), ("start", ["flow", "params"]), ("finish", ["output", "params"]),
        ("setfacts", ["facts"]),
    ]

    /// The operation this op names, or `InvalidOperation` saying what is missing or wrong.
    public func parsed() throws(NavigationError) -> Operation {
        guard let signature = Self.signatures.first(where: { $0.name == name }) else {
            throw .invalidOperation("unknown operation '\(name)'; use one of \(Self.signatures.map(\.name).joined(separator: ", "))")
        }
        for key in arguments.keys.sorted() where !signature.arguments.contains(key) {
            let takes = signature.arguments.isEmpty ? "takes no arguments" : "takes \(signature.arguments.joined(separator: ", "))"
            throw .invalidOperation("\(name) has no argument '\(key)'; it \(takes)")
        }
        switch name {
        case "push": return .push(route: try string("route"), params: try params())
        case "pop": return .pop
        case "popto": return .popTo(target: try string("target"))
        case "poptoroot": return .popToRoot
        case "replace": return .replace(route: try string("route"), params: try params())
        case "setstack": return .setStack(try screens())
        case "present": return .present(route: try string("route"), params: try params(), style: try string("style"))
        case "dismiss": return .dismiss
        case "dismissall": return .dismissAll
        case "back": return .back
        case "selecttab": return .selectTab(try string("tab"))
        case "send":
            let source = arguments["source"] == nil ? "" : try string("source")
            return .send(source: source, event: try string("event"), params: try params(), expectedRevision: 0)
        case "start": return .start(flow: try string("flow"), params: try params())
        case "finish": return .finish(output: try string("output"), params: try params())
        case "setfacts":
            guard let value = arguments["facts"] else { throw .invalidOperation("setfacts needs argument 'facts' (a dict a{sv})") }
            return .setFacts(try Self.params(value, what: "argument 'facts' of setfacts"))
        default: return .open(try string("target"))
        }
    }

    func string(_ key: String) throws(NavigationError) -> String {
        guard let value = arguments[key] else {
            throw .invalidOperation("\(name) needs argument '\(key)' (a string)")
        }
        guard case .string(let text) = value else {
            throw .invalidOperation("argument '\(key)' of \(name) must be a string, not \(value.kindDescription)")
        }
        return text
    }

    func params() throws(NavigationError) -> InputParams {
        guard let value = arguments["params"] else { return [:] }
        return try Self.params(value, what: "argument 'params' of \(name)")
    }

    static func params(_ value: InputValue, what: String) throws(NavigationError) -> InputParams {
        switch value {
        case .map(let params): return params
        case .list(let items) where items.isEmpty: return [:]
        default: throw .invalidOperation("\(what) must be a dict a{sv}, not \(value.kindDescription)")
        }
    }

    func screens() throws(NavigationError) -> [ScreenRequest] {
        guard let value = arguments["screens"] else {
            throw .invalidOperation("setstack needs argument 'screens' (an array a(sa{sv}))")
        }
        guard case .list(let items) = value else {
            throw .invalidOperation("argument 'screens' of setstack must be an array a(sa{sv}), not \(value.kindDescription)")
        }
        var requests: [ScreenRequest] = []
        for (index, item) in items.enumerated() {
            guard case .record(let fields) = item, fields.count == 2, case .string(let route) = fields[0] else {
                throw .invalidOperation("screen \(index) of setstack must be a struct (sa{sv}) of route and params")
            }
            requests.append(ScreenRequest(route: route, params: try Self.params(fields[1], what: "the params of screen \(index) of setstack")))
        }
        return requests
    }
}

extension Coordinator {
    /// Apply's rules: count, parse, static checks over all ops, expected revision, then each op in order on
    /// the transaction; any failure carries its op's index and leaves the caller's state untouched.
    func applyOperations(_ raws: [RawOperation], expectedRevision: UInt64, _ txn: inout Transaction) throws(NavigationError) {
        if raws.count > graph.limits.maxApplyOps {
            throw .limitExceeded("Apply got \(raws.count) ops; the limit is \(graph.limits.maxApplyOps)")
        }
        var ops: [Operation] = []
        ops.reserveCapacity(raws.count)
        for (index, raw) in raws.enumerated() {
            do { ops.append(try raw.parsed()) } catch { throw error.prefixed("op \(index): ") }
        }
        try checkStatically(ops, indexed: true)
        if expectedRevision != 0 && expectedRevision != state.revision {
            throw .staleRevision("expected revision \(expectedRevision), but the tree is at revision \(state.revision); read the state again and retry")
        }
        for (index, op) in ops.enumerated() {
            do {
                try countStep(&txn)
                switch op {
                case .send(let source, let event, let params, _):
                    try send(source: source, event: event, params: params, expectedRevision: 0, &txn)
                case .start(let flow, let params): _ = try startFlow(flow, params: params, onOutput: [:], &txn)
                case .finish(let output, let params): try finishTop(output: output, params: params, &txn)
                case .setFacts(let values): try setFacts(values, &txn)
                default: try runTreeOp(op, &txn)
                }
            } catch {
                if txn.violation != nil { throw error }
                throw error.prefixed("op \(index): ")
            }
        }
    }
}
