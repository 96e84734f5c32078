import DBus
import Navigation

// A call's arguments as the model takes them. The daemon's signature check lets only the declared
// types through; a value of another shape still throws `InvalidArgs` naming it, so that a change
// to the declaration cannot turn into a silent "" or an empty list.

extension InputValue {
    /// A caller's value as the model sees it: integer kinds folded, variants in `a{sv}` unwrapped once.
    public init(dbusValue value: DBusValue) {
        switch value {
        case .byte(let v): self = .int(Int64(v))
        case .int16(let v): self = .int(Int64(v))
        case .uint16(let v): self = .int(Int64(v))
        case .int32(let v): self = .int(Int64(v))
        case .uint32(let v): self = .int(Int64(v))
        case .int64(let v): self = .int(v)
        case .uint64(let v): self = .uint(v)
        case .double(let v): self = .double(v)
        case .boolean(let v): self = .bool(v)
        case .string(let v): self = .string(v)
        case .objectPath: self = .other("o")
        case .signature: self = .other("g")
        case .array(_, let items): self = .list(items.map(InputValue.init(dbusValue:)))
        case .structure(let fields): self = .record(fields.map(InputValue.init(dbusValue:)))
        case .variant(let inner): self = .variant(InputValue(dbusValue: inner))
        case .dictionary(let key, _, let entries):
            guard key == .string else {
                self = .other(value.signature.rawValue)
                return
            }
            var map: [String: InputValue] = [:]
            map.reserveCapacity(entries.count)
            for entry in entries {
                // The key signature is `s`, so every key is a string.
                guard case .string(let name) = entry.key else { continue }
                map[name] = Self.unwrappedOnce(entry.value)
            }
            self = .map(map)
        }
    }

    /// A dict value: a variant is unwrapped once, so only a variant inside a variant stays `.variant`.
    static func unwrappedOnce(_ value: DBusValue) -> InputValue {
        if case .variant(let inner) = value { return InputValue(dbusValue: inner) }
        return InputValue(dbusValue: value)
    }

    /// The params argument `a{sv}` of Push, Replace and Present; throws `InvalidArgs` for any other shape.
    public static func params(dbusValue value: DBusValue) throws(DBusError) -> InputParams {
        guard case .dictionary(.string, _, let entries) = value else { throw malformed("params a{sv}", value) }
        var params: InputParams = [:]
        params.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key else { throw malformed("a string key", entry.key) }
            params[key] = unwrappedOnce(entry.value)
        }
        return params
    }
}

extension ScreenRequest {
    /// SetStack's screens `a(sa{sv})`; throws `InvalidArgs` naming the first screen of another shape.
    public static func screens(dbusValue value: DBusValue) throws(DBusError) -> [ScreenRequest] {
        try decodeArray(value, "screens \(WireSignature.screens)", item: "screen") { item throws(DBusError) in
            let (route, params) = try namedParams(item, "a screen")
            return ScreenRequest(route: route, params: params)
        }
    }

    /// One screen `(sa{sv})`.
    public static func dbusValue(route: String, params: [String: ParamValue]) -> DBusValue {
        .structure([.string(route), params.dbusValue])
    }
}

extension RawOperation {
    /// Apply's ops `a(sa{sv})`; throws `InvalidArgs` naming the first op of another shape.
    public static func operations(dbusValue value: DBusValue) throws(DBusError) -> [RawOperation] {
        try decodeArray(value, "ops \(WireSignature.operations)", item: "op") { item throws(DBusError) in
            let (name, arguments) = try namedParams(item, "an op")
            return RawOperation(name: name, arguments: arguments)
        }
    }

    /// One Op `(sa{sv})`: the lower-case method name and its arguments, each wrapped in a variant.
    public static func dbusValue(name: String, arguments: [(String, DBusValue)]) -> DBusValue {
        .structure([.string(name), .vardict(arguments)])
    }
}

/// A screen request or an op, `(sa{sv})`: its name and its dict.
func namedParams(_ value: DBusValue, _ what: String) throws(DBusError) -> (String, InputParams) {
    guard case .structure(let fields) = value, fields.count == 2, case .string(let name) = fields[0] else {
        throw malformed("\(what) \(WireSignature.namedDictionary)", value)
    }
    return (name, try InputValue.params(dbusValue: fields[1]))
}

extension DBusValue {
    /// The `s` argument's text; throws `InvalidArgs` naming `what` when the value is not a string.
    public func requiredString(_ what: String) throws(DBusError) -> String {
        guard case .string(let text) = self else { throw malformed("\(what) (s)", self) }
        return text
    }

    /// The `t` argument's value; throws `InvalidArgs` naming `what` when the value is not a `t`.
    public func requiredUInt64(_ what: String) throws(DBusError) -> UInt64 {
        guard case .uint64(let value) = self else { throw malformed("\(what) (t)", self) }
        return value
    }

    /// The `b` argument's value; throws `InvalidArgs` naming `what` when the value is not a `b`.
    public func requiredBool(_ what: String) throws(DBusError) -> Bool {
        guard case .boolean(let value) = self else { throw malformed("\(what) (b)", self) }
        return value
    }

    /// The value as a `u`; `InvalidArgs` naming `what` otherwise.
    public func requiredUInt32(_ what: String) throws(DBusError) -> UInt32 {
        guard case .uint32(let value) = self else { throw malformed("\(what) (u)", self) }
        return value
    }
}
