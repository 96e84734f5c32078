/// The type a route declares for one of its params.
public enum ParamType: String, Sendable, CaseIterable {
    /// `string` (s), `int` (x), `double` (d), `bool` (b).
    case string, int, double, bool

    /// The D-Bus types accepted for this declared type, for error messages.
    var acceptedDBusTypes: String {
        switch self {
        case .string: "s"
        case .int: "y n q i u x, or t up to 2^63-1"
        case .double: "d or any integer type"
        case .bool: "b"
        }
    }
}

/// A checked param value, as it is stored and sent back (`s`, `x`, `d`, `b`).
///
/// Doubles compare by bit pattern so that a tree always equals itself (NaN included); NaNs are
/// canonicalised when params are checked.
public enum ParamValue: Sendable {
    /// Sent back as `s`.
    case string(String)
    /// Sent back as `x`.
    case int(Int64)
    /// Sent back as `d`.
    case double(Double)
    /// Sent back as `b`.
    case bool(Bool)

    /// The declared type this value satisfies.
    public var type: ParamType {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        }
    }
}

extension ParamValue: Hashable {
    /// Equal when of the same type and, for doubles, the same bit pattern.
    public static func == (lhs: ParamValue, rhs: ParamValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.bool(let a), .bool(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0); hasher.combine(value)
        case .int(let value): hasher.combine(1); hasher.combine(value)
        case .double(let value): hasher.combine(2); hasher.combine(value.bitPattern)
        case .bool(let value): hasher.combine(3); hasher.combine(value)
        }
    }
}

/// How a screen is shown: the root of a tab or stack, pushed, or the root of a modal layer.
public enum Presentation: String, Sendable, CaseIterable {
    /// A stack's root screen; a pushed screen; a sheet's or a cover's root screen.
    case root, push, sheet, cover
}

/// The style of a modal layer.
public enum ModalStyle: String, Sendable, CaseIterable {
    /// A sheet (dismissable card) or a cover (full-screen).
    case sheet, cover

    /// The presentation of a layer's root screen.
    public var presentation: Presentation { self == .sheet ? .sheet : .cover }
}

/// A display hint a route carries for views (such as `color` or `index`).
public enum HintValue: Hashable, Sendable {
    /// A string hint (sent as `s`).
    case string(String)
    /// A whole-number hint (sent as `x`).
    case int(Int64)
}
