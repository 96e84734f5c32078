/// A value as a caller sent it, before it is checked against a route's declaration
/// (the daemon converts D-Bus values into these).
///
/// Only `variant` is boxed (lists and maps hold their elements in arrays and dictionaries already).
/// A boxed case is referenced through a pointer carrying the case in its spare bits, which
/// LeakSanitizer does not take for a pointer: values kept in globals were reported as leaked.
public enum InputValue: Sendable {
    /// D-Bus `s`.
    case string(String)
    /// D-Bus `b`.
    case bool(Bool)
    /// D-Bus `y n q i u x`.
    case int(Int64)
    /// D-Bus `t` (valid as an int only up to `Int64.max`).
    case uint(UInt64)
    /// D-Bus `d`.
    case double(Double)
    /// D-Bus arrays that are not string-keyed dicts.
    case list([InputValue])
    /// D-Bus structs.
    case record([InputValue])
    /// String-keyed dicts (`a{sv}` values already unwrapped from their variant).
    case map([String: InputValue])
    /// A variant that held another variant (as a param: `InvalidParams`).
    indirect case variant(InputValue)
    /// Anything else, by its D-Bus signature ("o", "g", "ay"…), kept for messages.
    case other(String)
}

/// Params as a caller sent them: key to unchecked value.
public typealias InputParams = [String: InputValue]

extension InputValue {
    /// A short phrase naming what the caller sent, for error messages ("a string", "a D-Bus 'o'").
    public var kindDescription: String {
        switch self {
        case .string: "a string"
        case .bool: "a bool"
        case .int: "an int"
        case .uint: "an unsigned int"
        case .double: "a double"
        case .list: "an array"
        case .record: "a struct"
        case .map: "a dict"
        case .variant: "a variant holding a variant"
        case .other(let signature): "a D-Bus '\(signature)'"
        }
    }

    /// The estimated D-Bus marshalled size of this value inside a variant, in bytes.
    ///
    /// It is the limit's measure (`maxParamsBytes`), not an exact wire size: strings count 4 + length + 1,
    /// fixed-size values 8 (4 for bools), containers their length word plus their elements.
    public var estimatedEncodedSize: Int {
        let variantSignature = 3
        switch self {
        case .string(let text): return variantSignature + 4 + text.utf8.count + 1
        case .bool: return variantSignature + 4
        case .int, .uint, .double: return variantSignature + 8
        case .list(let items): return variantSignature + 4 + items.reduce(0) { $0 + $1.estimatedEncodedSize }
        case .record(let items): return variantSignature + items.reduce(0) { $0 + $1.estimatedEncodedSize }
        case .map(let entries): return variantSignature + InputValue.estimatedEncodedSize(of: entries)
        case .variant(let inner): return variantSignature + inner.estimatedEncodedSize
        case .other(let signature): return variantSignature + signature.utf8.count + 8
        }
    }

    /// The estimated D-Bus marshalled size of an `a{sv}`: 4 for its length, then per key 4 + length + 1
    /// plus the value's size.
    public static func estimatedEncodedSize(of params: InputParams) -> Int {
        var total = 4
        for (key, value) in params {
            total += 4 + key.utf8.count + 1 + value.estimatedEncodedSize
        }
        return total
    }
}

extension InputValue: Hashable {
    /// Equal when of the same kind and contents and, for doubles, the same bit pattern (as `ParamValue`): a NaN a
    /// caller sent equals itself, so an operation read back from the journal equals the one written.
    public static func == (lhs: InputValue, rhs: InputValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.list(let a), .list(let b)), (.record(let a), .record(let b)): a == b
        case (.map(let a), .map(let b)): a == b
        case (.variant(let a), .variant(let b)): a == b
        case (.other(let a), .other(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0); hasher.combine(value)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .uint(let value): hasher.combine(3); hasher.combine(value)
        case .double(let value): hasher.combine(4); hasher.combine(value.bitPattern)
        case .list(let items): hasher.combine(5); hasher.combine(items)
        case .record(let items): hasher.combine(6); hasher.combine(items)
        case .map(let members): hasher.combine(7); hasher.combine(members)
        case .variant(let inner): hasher.combine(8); hasher.combine(inner)
        case .other(let signature): hasher.combine(9); hasher.combine(signature)
        }
    }
}
