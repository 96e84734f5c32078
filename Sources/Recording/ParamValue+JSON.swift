import JSON
import Navigation

extension ParamValue {
    /// The param as a JSON value of its type: a string, a whole number, a number with a fraction (`2.0`), a bool.
    public var json: JSONValue {
        switch self {
        case .string(let value): return .string(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        }
    }
}

extension Dictionary where Key == String, Value == ParamValue {
    /// The params as a JSON object, keys sorted.
    public var json: JSONValue {
        .object(keys.sorted().map { ($0, self[$0]!.json) })
    }
}
