import JSON
import NavdClient

/// A batch file that does not have the documented shape.
public struct BatchSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the op's index and the key when it concerns one op.
    public var description: String

    /// Makes an error with its message.
    public init(description: String) { self.description = description }
}

/// The param types a batch's params are converted to: each route's declared types, and the facts' types.
public struct BatchParamTypes: Sendable {
    /// Param name to type name (`int`, …) for each route.
    public var routes: [String: [String: String]]
    /// Fact name to the type of its current value, for `setfacts`.
    public var facts: [String: String]

    /// Types as given (none: JSON numbers, bools and strings are sent as they are).
    public init(routes: [String: [String: String]] = [:], facts: [String: String] = [:]) {
        self.routes = routes
        self.facts = facts
    }
}

/// An `Apply` batch read from JSON: the ops and the revision the file expects, if it names one.
///
/// Each op is read by its declaration in `OperationDeclaration.all`: an unknown op, an argument the op does not
/// take, a value of the wrong kind, a missing required argument or a key given twice is refused, naming the
/// op's index and the key; nothing is dropped.
public struct Batch: Hashable, Sendable {
    /// The operations in order.
    public var operations: [BatchOperation]
    /// The file's `"expect"`; nil when absent.
    public var expectedRevision: UInt64?

    /// The routes whose declared types the batch's params need (`routes` in `BatchParamTypes`).
    public var routesWithParams: Set<String> {
        var names: Set<String> = []
        for op in operations {
            if case .string(let route)? = op.arguments["route"], case .params(let params)? = op.arguments["params"],
               !params.isEmpty { names.insert(route) }
            guard case .screens(let screens)? = op.arguments["screens"] else { continue }
            for screen in screens where !screen.params.isEmpty { names.insert(screen.route) }
        }
        return names
    }

    /// Whether the batch sets facts, whose current types its values are converted to (`facts` in `BatchParamTypes`).
    public var setsFacts: Bool { operations.contains { $0.arguments["facts"] != nil } }

    /// Reads a batch: either an array of ops or `{"expect": N, "ops": [...]}`. An op is
    /// `{"op": "push", "route": "orange", "params": {"id": 42}}`: `op` is the contract's name or navctl's
    /// (`OperationDeclaration.spelled`), every other key one of the op's arguments. `screens` is a list of
    /// `{"route", "params"}` objects or route-name strings. Params are converted to `types`.
    public init(json: JSONValue, types: BatchParamTypes = BatchParamTypes()) throws(BatchSyntaxError) {
        var opsValue = json
        expectedRevision = nil
        if case .object(let members) = json {
            for (key, _) in members where key != "ops" && key != "expect" {
                throw BatchSyntaxError(description: "a batch object has \"ops\" and \"expect\", not \"\(key)\"")
            }
            guard let ops = json["ops"] else { throw BatchSyntaxError(description: "a batch object needs \"ops\"") }
            opsValue = ops
            switch json["expect"] {
            case nil: break
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
            operations.append(try OperationReader(index: index, types: types).read(item))
        }
        self.operations = operations
    }
}

/// Reads one op of a batch by its declaration.
struct OperationReader {
    let index: Int
    let types: BatchParamTypes

    func fail(_ what: String) -> BatchSyntaxError { BatchSyntaxError(description: "op \(index): \(what)") }

    func read(_ item: JSONValue) throws(BatchSyntaxError) -> BatchOperation {
        guard case .object(let members) = item else {
            throw fail("an op is an object like {\"op\": \"push\", \"route\": \"red\"}")
        }
        guard let opValue = item["op"] else { throw fail("missing \"op\"") }
        guard members.filter({ $0.0 == "op" }).count == 1 else { throw fail("\"op\" is given twice") }
        guard case .string(let word) = opValue else { throw fail("\"op\" must be a string, not \(opValue.kindDescription)") }
        guard let declaration = OperationDeclaration.spelled(word) else {
            let names = OperationDeclaration.all.map(\.name).joined(separator: ", ")
            let spellings = OperationDeclaration.all.flatMap(\.spellings).joined(separator: ", ")
            throw fail("unknown op '\(word)'; use one of \(names) (or navctl's \(spellings))")
        }
        var route: String?
        if case .string(let name)? = item["route"] { route = name }
        var arguments: [String: BatchArgument] = [:]
        for (key, value) in members where key != "op" {
            guard let argument = declaration.argument(key) else {
                throw fail("\(word) has no argument \"\(key)\"; it \(declaration.takesDescription)")
            }
            guard arguments[key] == nil else { throw fail("\"\(key)\" is given twice") }
            let what = "\"\(key)\" of \(word)"
            switch argument.kind {
            case .string:
                guard case .string(let text) = value else { throw fail("\(what) must be a string, not \(value.kindDescription)") }
                arguments[key] = .string(text)
            case .params:
                let declared = key == "facts" ? types.facts : route.flatMap { types.routes[$0] } ?? [:]
                arguments[key] = .params(try params(value, declared: declared, what: what))
            case .screens:
                arguments[key] = .screens(try screens(value, what: what))
            case .revision:
                guard let revision = value.unsignedValue else { throw fail("\(what) must be \(Self.described(.revision)), not \(value.kindDescription)") }
                arguments[key] = .revision(revision)
            }
        }
        for argument in declaration.arguments where argument.isRequired && arguments[argument.name] == nil {
            throw fail("\(word) needs \"\(argument.name)\" (\(Self.described(argument.kind)))")
        }
        do {
            return try BatchOperation(declaration.name, arguments)
        } catch {
            throw fail(error.description)
        }
    }

    /// How a batch file writes a value of `kind`.
    static func described(_ kind: OperationDeclaration.Kind) -> String {
        switch kind {
        case .string: "a string"
        case .params: "an object of strings, numbers and bools"
        case .screens: "an array of route names and {\"route\", \"params\"} objects"
        case .revision: "a revision (a whole number)"
        }
    }

    func params(_ value: JSONValue, declared: [String: String], what: String) throws(BatchSyntaxError) -> Params {
        guard case .object(let members) = value else {
            throw fail("\(what) must be \(Self.described(.params)), not \(value.kindDescription)")
        }
        var params: Params = [:]
        for (key, member) in members {
            guard params[key] == nil else { throw fail("param '\(key)' of \(what) is given twice") }
            guard let param = ParamValue(json: member, declaredType: declared[key]) else {
                throw fail("param '\(key)' of \(what) must be a string, number or bool, not \(member.kindDescription)")
            }
            params[key] = param
        }
        return params
    }

    func screens(_ value: JSONValue, what: String) throws(BatchSyntaxError) -> [ScreenSpec] {
        guard case .array(let items) = value else {
            throw fail("\(what) must be \(Self.described(.screens)), not \(value.kindDescription)")
        }
        var specs: [ScreenSpec] = []
        for (number, screen) in items.enumerated() {
            let label = "screen \(number) of \(what)"
            switch screen {
            case .string(let route):
                specs.append(ScreenSpec(route: route))
            case .object(let members):
                guard case .string(let route)? = screen["route"] else { throw fail("\(label) needs \"route\" (a string)") }
                for (key, _) in members where key != "route" && key != "params" {
                    throw fail("\(label) has \"route\" and \"params\", not \"\(key)\"")
                }
                let params = try screen["params"].map { value throws(BatchSyntaxError) in
                    try self.params(value, declared: types.routes[route] ?? [:], what: label)
                } ?? [:]
                specs.append(ScreenSpec(route: route, params: params))
            default:
                throw fail("\(label) must be a route name or {\"route\", \"params\"}, not \(screen.kindDescription)")
            }
        }
        return specs
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
