/// One segment of a declared link pattern such as `/news/{id}`.
package enum LinkPattern: Hashable, Sendable {
    /// A segment that must appear as written.
    case literal(String)
    /// A `{param}` segment.
    case param(String)

    /// The segments of `pattern`, or nil when it is not `/seg/{param}/…` with non-empty segments.
    package static func parse(_ pattern: String) -> [LinkPattern]? {
        guard pattern.hasPrefix("/"), pattern.count > 1 else { return nil }
        var result: [LinkPattern] = []
        for part in pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                guard RouteGraph.isValidName(name) else { return nil }
                result.append(.param(name))
            } else {
                guard RouteGraph.isValidName(String(part)) else { return nil }
                result.append(.literal(String(part)))
            }
        }
        return result
    }
}

/// Percent-decoding for link segments: `%XX` escapes of UTF-8 bytes.
enum PercentDecoding {
    /// The decoded text, or nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// What a deep link resolves to: a tab and the stack it gets, bottom first (ids not yet issued).
struct LinkPlan: Hashable, Sendable {
    var tabIndex: Int
    var screens: [(route: String, params: [String: ParamValue])]

    static func == (lhs: LinkPlan, rhs: LinkPlan) -> Bool {
        lhs.tabIndex == rhs.tabIndex && lhs.screens.count == rhs.screens.count
            && zip(lhs.screens, rhs.screens).allSatisfy { $0.route == $1.route && $0.params == $1.params }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(tabIndex)
        for screen in screens { hasher.combine(screen.route); hasher.combine(screen.params) }
    }
}
