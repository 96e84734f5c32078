// Reading a scalar as a whole number, a bool or a double. The rules are those of the Yams
// constructors route files were read with before navd read libyaml directly (`Int.construct`,
// `Bool.construct`, `Double.construct`), spelling for spelling, so every route file means what it
// meant: YAML 1.1 bools (`yes`, `on`, any case), ints in bases 2, 8, 10 and 16 with `_` and
// base-60 (`1:30`), and a leading `0` meaning octal. `RouteFileScalarTests` pins each case.

extension YAMLScalar {
    /// The scalar as a whole number, when it is plain and spells one.
    var int: Int? {
        guard style == .plain else { return nil }
        let withSign = withoutUnderscores
        if withSign == "0" { return 0 }
        let negative = withSign.hasPrefix("-")
        let hasSign = negative || withSign.hasPrefix("+")
        let digits = withSign.dropFirst(hasSign ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") {
            return Self.sexagesimal(withSign) { Int($0, radix: 10) }
        }
        return Int(withSign)
    }

    /// The scalar as a bool, unless it is a string by tag (`!!str`, quoted, a block): `true`,
    /// `yes`, `on`, `false`, `no`, `off` in any case.
    var bool: Bool? {
        if tag == Self.stringTag { return nil }
        switch string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The scalar as a double, when it is plain and spells one (`.inf`, `.nan`, base 60 too).
    var float: Double? {
        guard style == .plain else { return nil }
        switch string.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = withoutUnderscores
            if text.contains(":") {
                return Self.sexagesimal(text) { Double($0) }
            }
            return Double(text)
        }
    }

    /// The text without `_`, YAML 1.1's digit separator.
    private var withoutUnderscores: String {
        string.contains("_") ? String(string.unicodeScalars.filter { $0 != "_" }) : string
    }

    /// A base-60 number such as `-1:30` (-90): `create` reads each part; nil when one does not
    /// read, or when the value overflows.
    private static func sexagesimal<Number: BaseSixty>(_ text: String, _ create: (String) -> Number?) -> Number? {
        var digits = Substring(text)
        var sign: Number = 1
        if digits.hasPrefix("-") {
            sign = -1
            digits = digits.dropFirst()
        } else if digits.hasPrefix("+") {
            digits = digits.dropFirst()
        }
        var value: Number = 0
        var base: Number = 1
        let parts = digits.split(separator: ":", omittingEmptySubsequences: false).reversed()
        for (index, part) in parts.enumerated() {
            guard let digit = create(String(part)), let term = digit.times(base), let sum = value.plus(term) else { return nil }
            value = sum
            if index + 1 < parts.count {
                guard let next = base.times(60) else { return nil }
                base = next
            }
        }
        return value.times(sign)
    }
}

/// A number YAML may write in base 60: its arithmetic, nil where an integer would overflow.
private protocol BaseSixty: SignedNumeric {
    func times(_ other: Self) -> Self?
    func plus(_ other: Self) -> Self?
}

extension Int: BaseSixty {
    fileprivate func times(_ other: Int) -> Int? {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? nil : product
    }

    fileprivate func plus(_ other: Int) -> Int? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}

extension Double: BaseSixty {
    fileprivate func times(_ other: Double) -> Double? { self * other }
    fileprivate func plus(_ other: Double) -> Double? { self + other }
}
