extension RawOperation {
    /// The operation this op names, checked against its declaration in `OperationDeclaration.all`, or
    /// `InvalidOperation` saying what is unknown, missing or of the wrong kind.
    public func parsed() throws(NavigationError) -> Operation {
        guard let declaration = OperationDeclaration.named(name) else {
            let names = OperationDeclaration.all.map(\.name).joined(separator: ", ")
            throw .invalidOperation("unknown operation '\(name)'; use one of \(names)")
        }
        for key in arguments.keys.sorted() where declaration.argument(key) == nil {
            throw .invalidOperation("\(name) has no argument '\(key)'; it \(declaration.takesDescription)")
        }
        var checked = CheckedArguments()
        for argument in declaration.arguments {
            guard let value = arguments[argument.name] else {
                guard !argument.isRequired else {
                    throw .invalidOperation("\(name) needs argument '\(argument.name)' (\(argument.kind.described))")
                }
                continue
            }
            let what = "argument '\(argument.name)' of \(name)"
            switch argument.kind {
            case .string:
                guard case .string(let text) = value else {
                    throw .invalidOperation("\(what) must be a string, not \(value.kindDescription)")
                }
                checked.strings[argument.name] = text
            case .params:
                checked.dicts[argument.name] = try Self.params(value, what: what)
            case .screens:
                checked.screens = try screens(value, what: what)
            }
        }
        return declaration.make(checked)
    }

    static func params(_ value: InputValue, what: String) throws(NavigationError) -> InputParams {
        switch value {
        case .map(let params): return params
        case .list(let items) where items.isEmpty: return [:]
        default: throw .invalidOperation("\(what) must be a dict a{sv}, not \(value.kindDescription)")
        }
    }

    func screens(_ value: InputValue, what: String) throws(NavigationError) -> [ScreenRequest] {
        guard case .list(let items) = value else {
            throw .invalidOperation("\(what) must be an array a(sa{sv}), not \(value.kindDescription)")
        }
        var requests: [ScreenRequest] = []
        for (index, item) in items.enumerated() {
            guard case .record(let fields) = item, fields.count == 2, case .string(let route) = fields[0] else {
                throw .invalidOperation("screen \(index) of \(name) must be a struct (sa{sv}) of route and params")
            }
            let params = try Self.params(fields[1], what: "the params of screen \(index) of \(name)")
            requests.append(ScreenRequest(route: route, params: params))
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
