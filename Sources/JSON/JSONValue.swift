/// A JSON document as values, with object keys kept in the order they were given.
///
/// Read and written here rather than through Foundation's JSONDecoder/JSONEncoder (which navctl links anyway,
/// through swift-argument-parser; start-up measured the same with either): the decoder takes trailing commas
/// and keeps one of two equal keys without a word, so a batch file's mistake would go unnoticed, and loses the
/// keys' order; the encoder writes `\/` and leaves DEL and C1 controls raw, which `--json` must escape.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`
    case null
    /// `true` / `false`
    case bool(Bool)
    /// A whole number that fits in 64 signed bits.
    case int(Int64)
    /// A whole number above `Int64.max` (revisions are `UInt64`).
    case unsigned(UInt64)
    /// A number with a fraction or an exponent; non-finite values encode as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys keep their order.
    case object([(String, JSONValue)])

    /// Two values are equal when they encode to the same text.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.encoded() == rhs.encoded() }

    /// Hashes the encoded text.
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded()) }

    /// A revision or other count as a JSON number.
    public static func number(_ value: UInt64) -> JSONValue {
        value <= UInt64(Int64.max) ? .int(Int64(value)) : .unsigned(value)
    }

    /// A whole number from 0 to 2^64 - 1 (a revision, a count); nil for anything else.
    public var unsignedValue: UInt64? {
        switch self {
        case .int(let number) where number >= 0: UInt64(number)
        case .unsigned(let number): number
        default: nil
        }
    }

    /// The value of `key` in an object, nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// A short phrase naming the value's kind, for messages: `a string`, `a number`, `null`.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .int, .unsigned, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The compact encoding on one line (no spaces), as written by `--json`.
    public func encoded() -> String {
        var output = ""
        encode(into: &output)
        return output
    }

    /// Appends the compact encoding to `output`.
    public func encode(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .unsigned(let value): output += String(value)
        case .double(let value):
            // Swift prints finite doubles as valid JSON numbers ("3.0", "1e-05", "1e+16").
            output += value.isFinite ? String(value) : "null"
        case .string(let value): Self.encodeString(value, into: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.encode(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.encodeString(member.0, into: &output)
                output += ":"
                member.1.encode(into: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes, and every scalar a terminal may
    /// act on (`isTerminalControl`: C0, DEL, C1) as JSON does, `\n` or `\u009b`; U+2028 and U+2029 too.
    static func encodeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.isTerminalControl || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension Unicode.Scalar {
    /// Whether a terminal may act on this scalar: C0 controls (ESC among them), DEL, and C1 controls.
    public var isTerminalControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
