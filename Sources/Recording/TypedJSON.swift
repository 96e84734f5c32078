// D-Bus values as recording JSON and back, by the signature the contract declares for them. The plain form
// drops what the signature already says (an `x` is a number, a struct an array of its fields, an `a{s…}` an
// object); a variant, whose type the signature does not say, holds its value plainly when it is `s`, `x`, `d`
// or `b` (a string, a whole number, a number with a fraction or exponent, a bool) and otherwise as
// `{"$type": SIGNATURE, "value": PLAIN}`, so that reading it back gives the very types that were sent.
import DBus
import JSON

/// A recording whose content does not fit the shape its key needs, or a value the recording cannot hold.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the key or the change.
    public var description: String

    /// An error with its message.
    public init(_ description: String) { self.description = description }
}

enum TypedJSON {
    /// The key that marks a variant's typed form.
    static let typeKey = "$type"

    /// `value` in the plain form of its own signature; with `typedVariants` false a variant is what it holds,
    /// its type dropped (for people to read, not for replay).
    static func json(_ value: DBusValue, typedVariants: Bool = true) -> JSONValue {
        func part(_ value: DBusValue) -> JSONValue { Self.json(value, typedVariants: typedVariants) }
        return switch value {
        case .byte(let v): .int(Int64(v))
        case .boolean(let v): .bool(v)
        case .int16(let v): .int(Int64(v))
        case .uint16(let v): .int(Int64(v))
        case .int32(let v): .int(Int64(v))
        case .uint32(let v): .int(Int64(v))
        case .int64(let v): .int(v)
        case .uint64(let v): .number(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .objectPath(let v): .string(v.rawValue)
        case .signature(let v): .string(v.rawValue)
        case .array(_, let items): .array(items.map(part))
        case .structure(let fields): .array(fields.map(part))
        case .dictionary(let key, _, let entries):
            if key == .string {
                .object(entries.map { entry in (entry.key.stringValue ?? "", part(entry.value)) })
            } else {
                .array(entries.map { .array([part($0.key), part($0.value)]) })
            }
        case .variant(let inner) where !typedVariants: part(inner)
        case .variant(let inner):
            switch inner {
            case .string, .int64, .double, .boolean: part(inner)
            default: .object([(typeKey, .string(inner.signature.rawValue)), ("value", part(inner))])
            }
        }
    }

    /// The value of `signature` that `json` wrote as `json`; `what` names it in the error.
    static func value(_ json: JSONValue, _ signature: String, what: String) throws(RecordingError) -> DBusValue {
        func fail() -> RecordingError { RecordingError("\(what) must be \(described(signature)), not \(json.kindDescription)") }
        func integer<T: FixedWidthInteger>(_: T.Type) throws(RecordingError) -> T {
            switch json {
            case .int(let v): if let x = T(exactly: v) { return x }
            case .unsigned(let v): if let x = T(exactly: v) { return x }
            default: break
            }
            throw RecordingError("\(what) must be \(described(signature)), not \(json.encoded())")
        }
        guard let code = signature.first else { throw RecordingError("\(what): empty signature") }
        switch code {
        case "y": return .byte(try integer(UInt8.self))
        case "n": return .int16(try integer(Int16.self))
        case "q": return .uint16(try integer(UInt16.self))
        case "i": return .int32(try integer(Int32.self))
        case "u": return .uint32(try integer(UInt32.self))
        case "x": return .int64(try integer(Int64.self))
        case "t": return .uint64(try integer(UInt64.self))
        case "b":
            guard case .bool(let v) = json else { throw fail() }
            return .boolean(v)
        case "d":
            switch json {
            case .double(let v): return .double(v)
            case .int(let v): return .double(Double(v))
            case .unsigned(let v): return .double(Double(v))
            default: throw fail()
            }
        case "s", "o", "g":
            guard case .string(let v) = json else { throw fail() }
            return code == "s" ? .string(v) : code == "o" ? .objectPath(ObjectPath(unchecked: v)) : .signature(Signature(unchecked: v))
        case "v": return .variant(try variant(json, what: what))
        case "(":
            let fields = SignatureParts.fields(signature)
            guard case .array(let items) = json, items.count == fields.count else { throw fail() }
            var values: [DBusValue] = []
            for (index, field) in fields.enumerated() { values.append(try value(items[index], field, what: "\(what)[\(index)]")) }
            return .structure(values)
        case "a":
            let element = String(signature.dropFirst())
            if element.first == "{" {
                let parts = SignatureParts.fields(element)
                guard parts.count == 2 else { throw RecordingError("\(what): bad signature \(signature)") }
                var entries: [DBusDictEntry] = []
                if parts[0] == "s", case .object(let members) = json {
                    for (key, member) in members {
                        entries.append(DBusDictEntry(key: .string(key), value: try value(member, parts[1], what: "'\(key)' in \(what)")))
                    }
                } else if parts[0] != "s", case .array(let pairs) = json {
                    for (index, pair) in pairs.enumerated() {
                        guard case .array(let kv) = pair, kv.count == 2 else { throw fail() }
                        entries.append(DBusDictEntry(
                            key: try value(kv[0], parts[0], what: "\(what)[\(index)]"),
                            value: try value(kv[1], parts[1], what: "\(what)[\(index)]")))
                    }
                } else {
                    throw fail()
                }
                return .dictionary(key: Signature(unchecked: parts[0]), value: Signature(unchecked: parts[1]), entries)
            }
            guard case .array(let items) = json else { throw fail() }
            var values: [DBusValue] = []
            for (index, item) in items.enumerated() { values.append(try value(item, element, what: "\(what)[\(index)]")) }
            return .array(element: Signature(unchecked: element), values)
        default:
            throw RecordingError("\(what): unsupported signature \(signature)")
        }
    }

    /// A variant's content: plain `s`, `x`, `d`, `b`, or the typed form.
    static func variant(_ json: JSONValue, what: String) throws(RecordingError) -> DBusValue {
        switch json {
        case .string(let v): return .string(v)
        case .int(let v): return .int64(v)
        case .unsigned(let v): return .uint64(v)
        case .double(let v): return .double(v)
        case .bool(let v): return .boolean(v)
        case .object(let members) where members.count == 2 && json[typeKey] != nil && json["value"] != nil:
            guard case .string(let type)? = json[typeKey], (try? Signature(type))?.isSingleCompleteType == true else {
                throw RecordingError("\(what): \"\(typeKey)\" must be one complete D-Bus type")
            }
            return try value(json["value"]!, type, what: what)
        default:
            throw RecordingError("\(what) must be a string, number, bool or {\"\(typeKey)\", \"value\"}, not \(json.kindDescription)")
        }
    }

    /// How a message names what a signature's plain form is.
    static func described(_ signature: String) -> String {
        switch signature.first {
        case "y", "n", "q", "i", "u", "x", "t": "a whole number fitting D-Bus type '\(signature)'"
        case "d": "a number"
        case "b": "a bool"
        case "s", "o", "g": "a string"
        case "v": "a value"
        case "(": "an array of \(SignatureParts.fields(signature).count) fields (\(signature))"
        default: signature.hasPrefix("a{s") ? "an object (\(signature))" : "an array (\(signature))"
        }
    }
}

/// Splits D-Bus signatures into their complete types.
enum SignatureParts {
    /// The complete types of a struct's or dict entry's fields (`(sa{sv})` → `s`, `a{sv}`), or of a
    /// sequence of complete types when `signature` is not bracketed.
    static func fields(_ signature: String) -> [String] {
        var inner = Substring(signature)
        if let first = inner.first, first == "(" || first == "{" { inner = inner.dropFirst().dropLast() }
        var parts: [String] = []
        var rest = inner
        while !rest.isEmpty {
            let length = completeTypeLength(rest)
            guard length > 0 else { break }
            parts.append(String(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return parts
    }

    /// The length of the complete type at the start of `text`; 0 when it does not start with one.
    static func completeTypeLength(_ text: Substring) -> Int {
        guard let first = text.first else { return 0 }
        switch first {
        case "a": let element = completeTypeLength(text.dropFirst()); return element > 0 ? element + 1 : 0
        case "(", "{":
            let close: Character = first == "(" ? ")" : "}"
            var depth = 0
            for (offset, character) in text.enumerated() {
                if character == "(" || character == "{" { depth += 1 }
                if character == ")" || character == "}" { depth -= 1 }
                if depth == 0 { return character == close ? offset + 1 : 0 }
            }
            return 0
        default: return 1
        }
    }
}
