/// A batch file that does not have the documented shape.
public struct BatchSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the op's index when it concerns one op.
    public var description: String

    /// Makes an error with its message.
    public init(description: String) { self.description = description }
}

/// An `Apply` batch read from JSON: the ops and the revision the file expects, if it names one.
public struct Batch: Hashable, Sendable {
    /// The operations in order.
    public var operations: [BatchOperation]
    /// The file's `"expect"`; nil when absent.
    public var expectedRevision: UInt64?

    /// The route names whose param types the batch needs.
    public var routesWithParams: Set<String> {
        var names: Set<String> = []
        for op in operations {
            if let route = op.route, op.params?.isEmpty == false { names.insert(route) }
            for screen in op.screens ?? [] where !screen.params.isEmpty { names.insert(screen.route) }
        }
        return names
    }

    /// Reads a batch: either an array of ops or `{"expect": N, "ops": [...]}`. An op is
    /// `{"op": "push", "route": "orange", "params": {"id": 42}}`; op names are the contract's
    /// (`popto`, `selecttab`, …) or navctl's (`pop-to`, `root`, `tab`, `set-stack`, `dismiss-all`);
    /// `screens` is a list of `{"route", "params"}` objects or route-name strings.
    /// Param values are converted to `declaredTypes(route)`.
    public init(json: JSONValue, declaredTypes: (String) -> [String: String] = { _ in [:] }) throws(BatchSyntaxError) {
        var opsValue = json
        expectedRevision = nil
        if case .object = json {
            guard let ops = json["ops"] else { throw BatchSyntaxError(description: "a batch object needs \"ops\"") }
            opsValue = ops
            switch json["expect"] {
            case nil, .null?: break
            case .int(let value)? where value >= 0: expectedRevision = UInt64(value)
            case .unsigned(let value)?: expectedRevision = value
            default: throw BatchSyntaxError(description: "\"expect\" must be a revision number")
            }
        }
        guard case .array(let items) = opsValue else {
            throw BatchSyntaxError(description: "a batch is an array of ops or {\"ops\": [...]}")
        }
        var operations: [BatchOperation] = []
        for (index, item) in items.enumerated() {
            operations.append(try Self.operation(item, index: index, declaredTypes: declaredTypes))
        }
        self.operations = operations
    }

    /// navctl's command names mapped to the contract's op names.
    static let operationAliases = [
        "root": "poptoroot", "pop-to-root": "poptoroot", "tab": "selecttab", "select-tab": "selecttab",
        "pop-to": "popto", "set-stack": "setstack", "dismiss-all": "dismissall",
    ]

    static func operation(_ item: JSONValue, index: Int, declaredTypes: (String) -> [String: String])
        throws(BatchSyntaxError) -> BatchOperation
    {
        func fail(_ what: String) -> BatchSyntaxError { BatchSyntaxError(description: "op \(index): \(what)") }
        func string(_ key: String) throws(BatchSyntaxError) -> String? {
            switch item[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw fail("\"\(key)\" must be a string")
            }
        }
        guard case .object = item else { throw fail("an op is an object like {\"op\": \"push\", \"route\": \"red\"}") }
        let opName = try string("op")
        let operationName = try string("operation")
        guard let rawName = opName ?? operationName else { throw fail("missing \"op\"") }
        let name = operationAliases[rawName.lowercased()] ?? rawName.lowercased()
        let route = try string("route"), target = try string("target")
        let style = try string("style"), tab = try string("tab")
        var operation = BatchOperation(name, route: route, target: target, style: style, tab: tab)
        if let params = item["params"] {
            operation.params = try Self.params(params, declared: declaredTypes(operation.route ?? ""), fail: fail)
        }
        if let screens = item["screens"] {
            guard case .array(let screenItems) = screens else { throw fail("\"screens\" must be an array") }
            var specs: [ScreenSpec] = []
            for screen in screenItems {
                switch screen {
                case .string(let route):
                    specs.append(ScreenSpec(route: route))
                case .object:
                    guard case .string(let route)? = screen["route"] else { throw fail("a screen needs \"route\"") }
                    let params = try screen["params"].map { value throws(BatchSyntaxError) in
                        try Self.params(value, declared: declaredTypes(route), fail: fail)
                    } ?? [:]
                    specs.append(ScreenSpec(route: route, params: params))
                default:
                    throw fail("a screen is a route name or {\"route\", \"params\"}")
                }
            }
            operation.screens = specs
        }
        return operation
    }

    static func params(_ value: JSONValue, declared: [String: String], fail: (String) -> BatchSyntaxError)
        throws(BatchSyntaxError) -> Params
    {
        guard case .object(let members) = value else { throw fail("\"params\" must be an object") }
        var params: Params = [:]
        for (key, member) in members {
            guard let param = ParamValue(json: member, declaredType: declared[key]) else {
                throw fail("param '\(key)' must be a string, number or bool")
            }
            params[key] = param
        }
        return params
    }
}

extension ParamValue {
    /// Reads a JSON value as a param: numbers take the declared numeric type, strings are converted
    /// as on the command line, other values keep their JSON type; nil for null, arrays and objects.
    public init?(json: JSONValue, declaredType: String?) {
        switch json {
        case .string(let text): self.init(text: text, declaredType: declaredType)
        case .bool(let flag): self = .bool(flag)
        case .int(let value): self = declaredType == "double" ? .double(Double(value)) : .int(value)
        case .unsigned(let value): self = declaredType == "double" ? .double(Double(value)) : .int(Int64(clamping: value))
        case .double(let value):
            if declaredType == "int", value == value.rounded(), let whole = Int64(exactly: value) {
                self = .int(whole)
            } else {
                self = .double(value)
            }
        case .null, .array, .object: return nil
        }
    }
}
