import DBus
import NavigatorProtocol
import Foundation
import RandomRouteGraphs

/// A D-Bus type to generate values of (file descriptors left out: the DBus layer refuses them).
indirect enum RandomType: Sendable {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double, string, objectPath, signature
    case array(RandomType)
    case dictionary(key: RandomType, value: RandomType)
    case structure([RandomType])
    case variant

    /// The type's signature.
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    static let basics: [RandomType] = [
        .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath, .signature,
    ]

    /// A random type nesting at most `depth` containers.
    static func random(depth: Int, using rng: inout SeededGenerator) -> RandomType {
        if depth <= 0 || rng.chance(0.55) { return rng.chance(0.15) ? .variant : rng.pick(basics) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .array(random(depth: depth - 1, using: &rng))
        case 1: return .dictionary(key: rng.pick(basics), value: random(depth: depth - 1, using: &rng))
        case 2: return .structure((0..<Int.random(in: 1...4, using: &rng)).map { _ in random(depth: depth - 1, using: &rng) })
        default: return .variant
        }
    }
}

/// Random and boundary values for calls nobody should make.
enum RandomValues {
    /// Strings at the edges: empty, the 4096-byte limit and one past it, far longer, non-ASCII,
    /// link-like and path-like text.
    static func string(using rng: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0: return ""
        case 1: return String(repeating: "a", count: 4096)
        case 2: return String(repeating: "b", count: 4097)
        case 3:
            // Far past the limit; rarer than the others, as building and checking them is slow.
            guard rng.chance(0.3) else { return String(repeating: "c", count: 5_000) }
            return String(repeating: "c", count: rng.chance(0.9) ? 70_000 : 600_000)
        case 4: return String(repeating: "é", count: 2048)  // 4096 bytes in 2048 characters
        case 5: return String(repeating: "é", count: 2049)  // 4098 bytes
        case 6: return "🧭" + String(repeating: "x", count: Int.random(in: 0..<40, using: &rng))
        case 7: return rng.pick(["red", "orange", "news-item", "login", "modal", "profile", "settings", "purple"])
        case 8: return rng.pick(["/", "//", "navd:", "navd:/", "/news/", "/news/abc", "/news/%zz", "/rainbow/orange;x=1"])
        case 9: return rng.pick(["push", "pop", "sheet", "cover", "root", "end", "rainbow", "news", "0", "-1"])
        case 10: return String(repeating: "/", count: Int.random(in: 1...300, using: &rng))
        case 11: return "\t\n\r \u{7f}\u{1}"
        case 12: return (0..<Int.random(in: 1...64, using: &rng)).map { _ in
                String(UnicodeScalar(UInt8.random(in: 0x21...0x7e, using: &rng)))
            }.joined()
        default: return "s\(Int.random(in: 0...200, using: &rng))"
        }
    }

    /// An integer value of a random integer type, with the boundaries favoured.
    static func integer(using rng: inout SeededGenerator) -> DBusValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .byte(rng.pick([0, 255]))
        case 1: return .int16(rng.pick([Int16.min, -1, 0, Int16.max]))
        case 2: return .uint16(rng.pick([0, UInt16.max]))
        case 3: return .int32(rng.pick([Int32.min, -1, 0, 7, Int32.max]))
        case 4: return .uint32(rng.pick([0, 7, UInt32.max]))
        case 5: return .int64(rng.pick([Int64.min, -1, 0, 7, Int64.max]))
        case 6: return .uint64(rng.pick([0, 7, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max]))
        case 7: return .double(rng.pick([0, -0.0, 7.5, .infinity, -.infinity, .nan, .greatestFiniteMagnitude]))
        case 8: return .boolean(rng.chance(0.5))
        default: return .int64(Int64.random(in: -1000...1000, using: &rng))
        }
    }

    /// A value of `type` whose containers hold at most a few elements.
    static func value(of type: RandomType, depth: Int, using rng: inout SeededGenerator) -> DBusValue {
        switch type {
        case .byte: return .byte(UInt8.random(in: 0...255, using: &rng))
        case .boolean: return .boolean(rng.chance(0.5))
        case .int16: return .int16(Int16.random(in: .min ... .max, using: &rng))
        case .uint16: return .uint16(UInt16.random(in: 0 ... .max, using: &rng))
        case .int32: return .int32(Int32.random(in: .min ... .max, using: &rng))
        case .uint32: return .uint32(rng.chance(0.3) ? UInt32.max : UInt32.random(in: 0...100, using: &rng))
        case .int64: return .int64(Int64.random(in: .min ... .max, using: &rng))
        case .uint64: return .uint64(rng.chance(0.3) ? UInt64.max : UInt64.random(in: 0...100, using: &rng))
        case .double: return .double(rng.pick([0, 1.5, -.infinity, .nan, 1e308]))
        // Inside containers strings stay short, so no message nears the bus's 32 MiB limit.
        case .string: return .string(String(string(using: &rng).prefix(5000)))
        case .objectPath: return .objectPath(ObjectPath(unchecked: rng.pick(["/", Navigator.objectPath.rawValue, "/a/b_c/D9"])))
        case .signature: return .signature(Signature(unchecked: rng.pick(["", "s", "a{sv}", "(sssa{sv})", "v"])))
        case .array(let element):
            let count = rng.chance(0.3) ? 0 : Int.random(in: 1...4, using: &rng)
            return .array(
                element: Signature(unchecked: element.signature),
                (0..<count).map { _ in value(of: element, depth: depth - 1, using: &rng) })
        case .dictionary(let key, let valueType):
            let count = rng.chance(0.3) ? 0 : Int.random(in: 1...4, using: &rng)
            return .dictionary(
                key: Signature(unchecked: key.signature), value: Signature(unchecked: valueType.signature),
                (0..<count).map { _ in
                    DBusDictEntry(key: value(of: key, depth: 0, using: &rng), value: value(of: valueType, depth: depth - 1, using: &rng))
                })
        case .structure(let fields):
            return .structure(fields.map { value(of: $0, depth: depth - 1, using: &rng) })
        case .variant:
            return .variant(any(depth: depth - 1, using: &rng))
        }
    }

    /// A value of a random type.
    static func any(depth: Int = 4, using rng: inout SeededGenerator) -> DBusValue {
        if rng.chance(0.3) { return .string(string(using: &rng)) }
        if rng.chance(0.2) { return integer(using: &rng) }
        let type = RandomType.random(depth: max(0, depth), using: &rng)
        return value(of: type, depth: max(0, depth), using: &rng)
    }

    /// `levels` variants, each holding the next, around an int: up to and past the nesting limit.
    static func nestedVariants(_ levels: Int) -> DBusValue {
        var value = DBusValue.int64(7)
        for _ in 0..<levels { value = .variant(value) }
        return value
    }

    /// `levels` nested single-field structs (or arrays) around a string.
    static func nestedContainers(_ levels: Int, arrays: Bool) -> DBusValue {
        var value = DBusValue.string("deep")
        for _ in 0..<levels {
            value = arrays ? .array(element: value.signature, [value]) : .structure([value])
        }
        return value
    }
}
