// A recorded change's request: the call's D-Bus arguments as recording JSON and back, by the method's
// in-signature in the contract (NavigatorMethod). Every method's arguments are an object keyed by the
// contract's argument names (`{"route": "red", "params": {"id": 42}}`); Apply's are a batch file of
// `navctl apply` (`{"ops": [{"op": "push", "route": "red"}], "expect": 0}`).
import DBus
import JSON
import Navigation
import NavigatorProtocol

/// The one conversion of a recorded call's arguments between D-Bus values and recording JSON.
public enum RecordedCall {
    /// `arguments` of a call of `method` as recording JSON; `RecordingError` when the method is not the
    /// contract's or the values do not match its in-signature.
    public static func json(method: String, arguments: [DBusValue]) throws(RecordingError) -> JSONValue {
        let declared = try inArguments(method)
        guard declared.count == arguments.count,
              zip(declared, arguments).allSatisfy({ $0.0.signature == $0.1.signature })
        else {
            let got = arguments.map(\.signature.rawValue).joined()
            throw RecordingError("\(method) takes (\(declared.map(\.signature.rawValue).joined())), not (\(got))")
        }
        if method == NavigatorMethod.apply.name { return try applyJSON(arguments) }
        return .object(zip(declared, arguments).map { ($0.0.name, TypedJSON.json($0.1)) })
    }

    /// The D-Bus arguments of a call of `method` that `json(method:arguments:)` wrote as `json`, with the very
    /// types that were sent; `RecordingError` naming the argument that does not fit.
    public static func arguments(method: String, json: JSONValue) throws(RecordingError) -> [DBusValue] {
        let declared = try inArguments(method)
        if method == NavigatorMethod.apply.name { return try applyArguments(json) }
        guard case .object(let members) = json else {
            throw RecordingError("the args of \(method) must be an object, not \(json.kindDescription)")
        }
        for (key, _) in members where !declared.contains(where: { $0.name == key }) {
            throw RecordingError("\(method) has no argument \"\(key)\"")
        }
        var values: [DBusValue] = []
        for argument in declared {
            guard let member = json[argument.name] else { throw RecordingError("the args of \(method) need \"\(argument.name)\"") }
            values.append(try TypedJSON.value(member, argument.signature.rawValue, what: "\"\(argument.name)\" of \(method)"))
        }
        return values
    }

    /// A D-Bus value as JSON for people to read (`navctl history --json`): the plain form of the recording,
    /// variants as what they hold.
    public static func plainJSON(_ value: DBusValue) -> JSONValue { TypedJSON.json(value, typedVariants: false) }

    private static func inArguments(_ method: String) throws(RecordingError) -> [ArgumentDeclaration] {
        guard let known = NavigatorMethod(name: method) else { throw RecordingError("'\(method)' is not a method of org.navd.Navigator1") }
        return known.declaration.inArguments
    }

    // MARK: Apply as a batch file

    private static func applyJSON(_ arguments: [DBusValue]) throws(RecordingError) -> JSONValue {
        guard case .array(_, let ops) = arguments[0], case .uint64(let expected) = arguments[1] else {
            throw RecordingError("Apply takes (a(sa{sv})t)")
        }
        var items: [JSONValue] = []
        for op in ops {
            guard case .structure(let fields) = op, fields.count == 2, case .string(let name) = fields[0],
                  case .dictionary(_, _, let entries) = fields[1]
            else { throw RecordingError("an Apply op must be (sa{sv})") }
            var members: [(String, JSONValue)] = [("op", .string(name))]
            let declaration = OperationKind(rawValue: name)?.declaration
            for entry in entries {
                let key = entry.key.stringValue ?? ""
                var inner = entry.value
                if case .variant(let held) = inner { inner = held }
                members.append((key, opArgumentJSON(inner, kind: declaration?.argument(key)?.kind)))
            }
            items.append(.object(members))
        }
        return .object([("ops", .array(items)), ("expect", .number(expected))])
    }

    /// An op argument in the batch file's form when its value has its kind's type, else the variant's typed form.
    private static func opArgumentJSON(_ inner: DBusValue, kind: OperationDeclaration.Kind?) -> JSONValue {
        guard let kind, inner.signature == kind.signature else { return TypedJSON.json(.variant(inner)) }
        guard kind == .screens, case .array(_, let screens) = inner else { return TypedJSON.json(inner) }
        return .array(screens.map { screen in
            guard case .structure(let fields) = screen, fields.count == 2 else { return TypedJSON.json(screen) }
            let params = TypedJSON.json(fields[1])
            if params == .object([]) { return TypedJSON.json(fields[0]) }
            return .object([("route", TypedJSON.json(fields[0])), ("params", params)])
        })
    }

    private static func applyArguments(_ json: JSONValue) throws(RecordingError) -> [DBusValue] {
        guard case .object(let members) = json, case .array(let items)? = json["ops"] else {
            throw RecordingError("the args of Apply must be {\"ops\": [...], \"expect\": N}")
        }
        for (key, _) in members where key != "ops" && key != "expect" {
            throw RecordingError("the args of Apply have \"ops\" and \"expect\", not \"\(key)\"")
        }
        let expected = try json["expect"].map { value throws(RecordingError) in
            try TypedJSON.value(value, "t", what: "\"expect\" of Apply")
        } ?? .uint64(0)
        var ops: [DBusValue] = []
        for (index, item) in items.enumerated() {
            let what = "op \(index) of Apply"
            guard case .object(let opMembers) = item, case .string(let name)? = item["op"] else {
                throw RecordingError("\(what) must be an object with \"op\" (a string)")
            }
            let declaration = OperationKind(rawValue: name)?.declaration
            var entries: [DBusDictEntry] = []
            for (key, value) in opMembers where key != "op" {
                let argumentWhat = "\"\(key)\" of \(what)"
                let inner: DBusValue
                if case .object = value, value[TypedJSON.typeKey] != nil {
                    inner = try TypedJSON.variant(value, what: argumentWhat)
                } else if let kind = declaration?.argument(key)?.kind {
                    inner = try opArgument(value, kind: kind, what: argumentWhat)
                } else {
                    inner = try TypedJSON.variant(value, what: argumentWhat)
                }
                entries.append(DBusDictEntry(key: .string(key), value: .variant(inner)))
            }
            ops.append(.structure([.string(name), .dictionary(key: .string, value: .variant, entries)]))
        }
        return [.array(element: WireSignature.namedDictionary, ops), expected]
    }

    private static func opArgument(_ value: JSONValue, kind: OperationDeclaration.Kind, what: String) throws(RecordingError) -> DBusValue {
        guard kind == .screens, case .array(let screens) = value else {
            return try TypedJSON.value(value, kind.signature.rawValue, what: what)
        }
        var values: [DBusValue] = []
        for (index, screen) in screens.enumerated() {
            let screenWhat = "screen \(index) of \(what)"
            switch screen {
            case .string(let route):
                values.append(.structure([.string(route), .dictionary(key: .string, value: .variant, [])]))
            case .object(let members) where members.allSatisfy({ $0.0 == "route" || $0.0 == "params" }):
                guard case .string(let route)? = screen["route"] else { throw RecordingError("\(screenWhat) needs \"route\" (a string)") }
                let params = try TypedJSON.value(screen["params"] ?? .object([]), WireSignature.params.rawValue, what: screenWhat)
                values.append(.structure([.string(route), params]))
            default:
                values.append(try TypedJSON.value(screen, "(sa{sv})", what: screenWhat))
            }
        }
        return .array(element: WireSignature.namedDictionary, values)
    }
}
