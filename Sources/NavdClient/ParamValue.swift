import DBus

/// A screen param: one of the four types a route may declare (`string`, `int`, `double`, `bool`).
public enum ParamValue: Hashable, Sendable {
    /// A declared `string`, sent as `s`.
    case string(String)
    /// A declared `int`, sent as `x`.
    case int(Int64)
    /// A declared `double`, sent as `d`.
    case double(Double)
    /// A declared `bool`, sent as `b`.
    case bool(Bool)

    /// The value as the contract sends it inside a variant.
    public var dbusValue: DBusValue {
        switch self {
        case .string(let value): return .string(value)
        case .int(let value): return .int64(value)
        case .double(let value): return .double(value)
        case .bool(let value): return .boolean(value)
        }
    }

    /// Reads a param the daemon sent back; integers of every width become `.int`, a nested variant is unwrapped.
    /// Returns nil for values the contract never sends as params (arrays, structs, …).
    public init?(dbusValue: DBusValue) {
        switch dbusValue {
        case .string(let value): self = .string(value)
        case .objectPath(let value): self = .string(value.rawValue)
        case .boolean(let value): self = .bool(value)
        case .double(let value): self = .double(value)
        case .byte(let value): self = .int(Int64(value))
        case .int16(let value): self = .int(Int64(value))
        case .uint16(let value): self = .int(Int64(value))
        case .int32(let value): self = .int(Int64(value))
        case .uint32(let value): self = .int(Int64(value))
        case .int64(let value): self = .int(value)
        case .uint64(let value): self = .int(Int64(clamping: value))
        case .variant(let inner): self.init(dbusValue: inner)
        default: return nil
        }
    }

    /// Converts command-line text to the type a route declares (`string`, `int`, `double`, `bool`).
    ///
    /// Text that does not parse as the declared type, or an undeclared type, stays a string:
    /// the client converts and leaves every other check to the daemon, which refuses with its own message.
    public init(text: String, declaredType: String?) {
        switch declaredType {
        case "int":
            if let value = Int64(text) { self = .int(value) } else { self = .string(text) }
        case "double":
            if let value = Double(text), value.isFinite { self = .double(value) } else { self = .string(text) }
        case "bool":
            switch text.lowercased() {
            case "true", "yes", "1", "on": self = .bool(true)
            case "false", "no", "0", "off": self = .bool(false)
            default: self = .string(text)
            }
        default:
            self = .string(text)
        }
    }

    /// The value as a person would type it: `42`, `2.5`, `true`, or the string itself.
    public var text: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        }
    }
}

/// Params keyed by name, as a route receives them.
public typealias Params = [String: ParamValue]

extension Dictionary where Key == String, Value == ParamValue {
    /// The params as the contract's `a{sv}`, keys sorted so the encoding is stable.
    public var dbusValue: DBusValue {
        let entries = keys.sorted().map { key in
            DBusDictEntry(key: .string(key), value: .variant(self[key]!.dbusValue))
        }
        return .dictionary(key: Signature(unchecked: "s"), value: Signature(unchecked: "v"), entries)
    }

    /// Reads an `a{sv}` the daemon sent; entries whose value is not a param type are left out.
    public init(dbusDictionary value: DBusValue) {
        self.init()
        guard case .dictionary(_, _, let entries) = value else { return }
        for entry in entries {
            guard case .string(let key) = entry.key, let param = ParamValue(dbusValue: entry.value) else { continue }
            self[key] = param
        }
    }
}
