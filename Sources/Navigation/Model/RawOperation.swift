/// One screen to build: a route and its params as sent (SetStack's `(sa{sv})`).
public struct ScreenRequest: Hashable, Sendable {
    /// The route name.
    public var route: String
    /// The params as sent, unchecked.
    public var params: InputParams

    /// A request for a `route` screen with `params`.
    public init(route: String, params: InputParams = [:]) {
        self.route = route
        self.params = params
    }
}

/// One Apply op as sent: `(sa{sv})`, an operation name and its arguments.
public struct RawOperation: Hashable, Sendable {
    /// The lower-case method name (`push`, `popto`, …).
    public var name: String
    /// The arguments by the contract's names (`route`, `params`, `target`, `style`, `tab`, `screens`).
    public var arguments: [String: InputValue]

    /// An op named `name` with `arguments`.
    public init(name: String, arguments: [String: InputValue] = [:]) {
        self.name = name
        self.arguments = arguments
    }
}

extension RawOperation {
    /// The operation this op names, checked against its declaration (`OperationKind.declaration`), or
    /// `InvalidOperation` saying what is unknown, missing or of the wrong kind.
    public func parsed() throws(NavigationError) -> Operation {
        guard let declaration = OperationDeclaration.named(name) else {
            throw .invalidOperation(OperationDeclaration.unknownOperationMessage(name))
        }
        for key in arguments.keys.sorted() where declaration.argument(key) == nil {
            throw .invalidOperation(declaration.unknownArgumentMessage(key))
        }
        var checked = CheckedArguments()
        for argument in declaration.arguments {
            guard let value = arguments[argument.name] else {
                guard !argument.isRequired else { throw .invalidOperation(declaration.missingArgumentMessage(argument)) }
                continue
            }
            let wrongKind = "\(declaration.wrongKindMessage(argument)), not \(value.kindDescription)"
            switch argument.kind {
            case .string:
                guard case .string(let text) = value else { throw .invalidOperation(wrongKind) }
                checked.strings[argument.name] = text
            case .params:
                guard let params = Self.params(value) else { throw .invalidOperation(wrongKind) }
                checked.dicts[argument.name] = params
            case .screens:
                guard case .list(let items) = value else { throw .invalidOperation(wrongKind) }
                checked.screens = try screens(items)
            case .revision:
                switch value {
                case .uint(let revision): checked.revisions[argument.name] = revision
                case .int(let revision) where revision >= 0: checked.revisions[argument.name] = UInt64(revision)
                default: throw .invalidOperation(wrongKind)
                }
            }
        }
        return declaration.make(checked)
    }

    /// A dict `a{sv}` (an empty array stands for an empty one), or nil for anything else.
    static func params(_ value: InputValue) -> InputParams? {
        switch value {
        case .map(let params): return params
        case .list(let items) where items.isEmpty: return [:]
        default: return nil
        }
    }

    func screens(_ items: [InputValue]) throws(NavigationError) -> [ScreenRequest] {
        var requests: [ScreenRequest] = []
        for (index, item) in items.enumerated() {
            guard case .record(let fields) = item, fields.count == 2, case .string(let route) = fields[0] else {
                throw .invalidOperation("screen \(index) of \(name) must be a struct (sa{sv}) of route and params")
            }
            guard let params = Self.params(fields[1]) else {
                throw .invalidOperation(
                    "the params of screen \(index) of \(name) must be a dict a{sv}, not \(fields[1].kindDescription)")
            }
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
        try checkExpected(expectedRevision)
        for (index, op) in ops.enumerated() {
            do {
                try countStep(&txn)
                switch op {
                case .send(let source, let event, let params, _):
                    try send(source: source, event: event, params: params, expectedRevision: 0, &txn)
                case .start(let flow, let params): _ = try startFlow(flow, params: params, onOutput: [:], &txn)
                case .finish(let output, let params): try finishTop(output: output, params: params, &txn)
                case .setFacts(let values): try setFacts(values, &txn)
                case .revert(let revision, _): try revert(to: revision, &txn)
                default: try runTreeOp(op, &txn)
                }
            } catch {
                if txn.violation != nil { throw error }
                throw error.prefixed("op \(index): ")
            }
        }
    }
}
