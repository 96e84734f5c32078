import DBus

/// A call's arguments as the bytes the model keeps with a change (`ChangeRecord.arguments`), and back: each
/// value with its complete type, so that GetChanges gives back exactly what was received.
///
/// Per value: its type code (ASCII: `y b n q i u x t d s o g a v`, `r` for a struct, `e` for a dict), then
/// numbers as 8 bytes little-endian (their bit pattern), strings as a varint length and UTF-8, an array as its
/// element signature and a varint count of values, a dict as its key and value signatures and a count of
/// key-value pairs, a struct as a count of fields, a variant as the value it holds. The whole is a varint count
/// of values.
enum RecordedArguments {
    /// The bytes of `values`.
    static func encode(_ values: [DBusValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        varint(UInt64(values.count), &bytes)
        for value in values { write(value, &bytes) }
        return bytes
    }

    /// The values `encode` made `bytes` of; nil when they are damaged.
    static func decode(_ bytes: [UInt8]) -> [DBusValue]? {
        var reader = Reader(bytes: bytes)
        guard let count = reader.varint(), count <= UInt64(bytes.count) else { return nil }
        var values: [DBusValue] = []
        for _ in 0..<count {
            guard let value = reader.value(depth: 0) else { return nil }
            values.append(value)
        }
        return reader.offset == bytes.count ? values : nil
    }

    private static func write(_ value: DBusValue, _ bytes: inout [UInt8]) {
        func number(_ code: Unicode.Scalar, _ pattern: UInt64) {
            bytes.append(UInt8(ascii: code))
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: pattern >> UInt64(shift))) }
        }
        switch value {
        case .byte(let v): number("y", UInt64(v))
        case .boolean(let v): number("b", v ? 1 : 0)
        case .int16(let v): number("n", UInt64(bitPattern: Int64(v)))
        case .uint16(let v): number("q", UInt64(v))
        case .int32(let v): number("i", UInt64(bitPattern: Int64(v)))
        case .uint32(let v): number("u", UInt64(v))
        case .int64(let v): number("x", UInt64(bitPattern: v))
        case .uint64(let v): number("t", v)
        case .double(let v): number("d", v.bitPattern)
        case .string(let v): text("s", v, &bytes)
        case .objectPath(let v): text("o", v.rawValue, &bytes)
        case .signature(let v): text("g", v.rawValue, &bytes)
        case .array(let element, let items):
            text("a", element.rawValue, &bytes)
            varint(UInt64(items.count), &bytes)
            for item in items { write(item, &bytes) }
        case .dictionary(let key, let valueType, let entries):
            text("e", key.rawValue, &bytes)
            string(valueType.rawValue, &bytes)
            varint(UInt64(entries.count), &bytes)
            for entry in entries {
                write(entry.key, &bytes)
                write(entry.value, &bytes)
            }
        case .structure(let fields):
            bytes.append(UInt8(ascii: "r"))
            varint(UInt64(fields.count), &bytes)
            for field in fields { write(field, &bytes) }
        case .variant(let inner):
            bytes.append(UInt8(ascii: "v"))
            write(inner, &bytes)
        }
    }

    private static func text(_ code: Unicode.Scalar, _ value: String, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: code))
        string(value, &bytes)
    }

    private static func string(_ value: String, _ bytes: inout [UInt8]) {
        varint(UInt64(value.utf8.count), &bytes)
        bytes.append(contentsOf: value.utf8)
    }

    private static func varint(_ value: UInt64, _ bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads what `write` wrote; every read checks its bounds.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64, let next = byte() {
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func count() -> Int? {
            guard let value = varint(), value <= UInt64(bytes.count - offset) else { return nil }
            return Int(value)
        }

        mutating func string() -> String? {
            guard let length = count() else { return nil }
            defer { offset += length }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }

        mutating func number() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
            offset += 8
            return value
        }

        mutating func value(depth: Int) -> DBusValue? {
            guard depth < 64, let code = byte() else { return nil }
            switch Character(Unicode.Scalar(code)) {
            case "y": return number().map { .byte(UInt8(truncatingIfNeeded: $0)) }
            case "b": return number().map { .boolean($0 != 0) }
            case "n": return number().map { .int16(Int16(truncatingIfNeeded: Int64(bitPattern: $0))) }
            case "q": return number().map { .uint16(UInt16(truncatingIfNeeded: $0)) }
            case "i": return number().map { .int32(Int32(truncatingIfNeeded: Int64(bitPattern: $0))) }
            case "u": return number().map { .uint32(UInt32(truncatingIfNeeded: $0)) }
            case "x": return number().map { .int64(Int64(bitPattern: $0)) }
            case "t": return number().map { .uint64($0) }
            case "d": return number().map { .double(Double(bitPattern: $0)) }
            case "s": return string().map { .string($0) }
            case "o": return string().map { .objectPath(ObjectPath(unchecked: $0)) }
            case "g": return string().map { .signature(Signature(unchecked: $0)) }
            case "a":
                guard let element = string(), let items = list(depth: depth) else { return nil }
                return .array(element: Signature(unchecked: element), items)
            case "e":
                guard let key = string(), let valueType = string(), let count = count() else { return nil }
                var entries: [DBusDictEntry] = []
                for _ in 0..<count {
                    guard let entryKey = value(depth: depth + 1), let entryValue = value(depth: depth + 1) else { return nil }
                    entries.append(DBusDictEntry(key: entryKey, value: entryValue))
                }
                return .dictionary(key: Signature(unchecked: key), value: Signature(unchecked: valueType), entries)
            case "r": return list(depth: depth).map { .structure($0) }
            case "v": return value(depth: depth + 1).map { .variant($0) }
            default: return nil
            }
        }

        mutating func list(depth: Int) -> [DBusValue]? {
            guard let count = count() else { return nil }
            var items: [DBusValue] = []
            for _ in 0..<count {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
            }
            return items
        }
    }
}
