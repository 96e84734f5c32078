/// One entry of a D-Bus dictionary (`{kv}`): a basic-typed key and a value.
public struct DBusDictEntry: Hashable, Sendable {
    /// The key; must be of a basic type (not a container, not a variant).
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// An entry of `key` and `value`.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// Any D-Bus value, with enough type information to know its own signature.
///
/// Unix file descriptors (`h`) are not supported: reading one throws `NotSupported`.
public indirect enum DBusValue: Hashable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`: valid UTF-8 without NUL (checked before sending).
    case string(String)
    /// `o`
    case objectPath(ObjectPath)
    /// `g`
    case signature(Signature)
    /// `aX`: the element signature is kept so that an empty array still has a type.
    case array(element: Signature, [DBusValue])
    /// `a{kv}`, entries in order; the key signature must be a basic type.
    case dictionary(key: Signature, value: Signature, [DBusDictEntry])
    /// `(...)`: one or more fields.
    case structure([DBusValue])
    /// `v`: any single value, with its type carried on the wire.
    case variant(DBusValue)

    /// This value's complete D-Bus type.
    public var signature: Signature {
        var text = ""
        appendSignature(to: &text)
        return Signature(unchecked: text)
    }

    /// Appends the value's signature to `text`: a basic type's or a variant's code, a container's whole type.
    func appendSignature(to text: inout String) {
        if let code = basicTypeCode {
            text.unicodeScalars.append(Unicode.Scalar(code))
            return
        }
        switch self {
        case .array(let element, _): text += "a" + element.rawValue
        case .dictionary(let key, let value, _): text += "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields):
            text += "("
            for field in fields { field.appendSignature(to: &text) }
            text += ")"
        default: break  // basic types and variants: their code, above
        }
    }

    /// The one-byte type code of a basic value (or of a variant, `v`); nil for containers.
    var basicTypeCode: UInt8? {
        switch self {
        case .byte: UInt8(ascii: "y")
        case .boolean: UInt8(ascii: "b")
        case .int16: UInt8(ascii: "n")
        case .uint16: UInt8(ascii: "q")
        case .int32: UInt8(ascii: "i")
        case .uint32: UInt8(ascii: "u")
        case .int64: UInt8(ascii: "x")
        case .uint64: UInt8(ascii: "t")
        case .double: UInt8(ascii: "d")
        case .string: UInt8(ascii: "s")
        case .objectPath: UInt8(ascii: "o")
        case .signature: UInt8(ascii: "g")
        case .variant: UInt8(ascii: "v")
        case .array, .dictionary, .structure: nil
        }
    }

    /// Whether the value is of a basic type (allowed as a dictionary key).
    public var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }
}

extension Array where Element == DBusValue {
    /// The concatenated signature of a list of values, such as a message body's.
    public var signature: Signature {
        var text = ""
        for value in self { value.appendSignature(to: &text) }
        return Signature(unchecked: text)
    }
}
