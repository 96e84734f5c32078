/// A D-Bus type signature such as `sa{sv}`: zero or more complete types. `Signature(s)` throws
/// `InvalidArgs` when libdbus' `dbus_signature_validate` refuses `s` (bad type codes, nesting beyond
/// 32 arrays or 32 structs, over 255 bytes); a literal such as `.array(element: "s", [])` is checked
/// once (see `ValidatedText`).
public struct Signature: ValidatedText {
    /// The signature text.
    public let rawValue: String

    /// A signature taken as given. Only for text known to be valid (literals, libdbus output):
    /// an invalid one makes later appends throw.
    public init(unchecked: String) {
        rawValue = unchecked
    }

    /// libdbus' `dbus_signature_validate`.
    public static let rule = TextRule(Validate.signature)

    /// The empty signature (no values).
    public static let empty = Signature(unchecked: "")

    /// The signatures of the basic types, usable as dictionary keys.
    public static let byte = Signature(unchecked: "y"), boolean = Signature(unchecked: "b"), int16 = Signature(unchecked: "n"),
        uint16 = Signature(unchecked: "q"), int32 = Signature(unchecked: "i"), uint32 = Signature(unchecked: "u"),
        int64 = Signature(unchecked: "x"), uint64 = Signature(unchecked: "t"), double = Signature(unchecked: "d"),
        string = Signature(unchecked: "s"), objectPath = Signature(unchecked: "o"), signature = Signature(unchecked: "g"),
        variant = Signature(unchecked: "v")

    /// Whether this is a single complete type (what a variant or an array element holds).
    public var isSingleCompleteType: Bool {
        (try? Validate.singleSignature(rawValue)) != nil
    }
}

/// A D-Bus object path such as `/org/example/Service1`. `ObjectPath(s)` throws `InvalidArgs` unless
/// `dbus_validate_path` accepts `s`; a literal is checked once (see `ValidatedText`).
public struct ObjectPath: ValidatedText {
    /// The path text.
    public let rawValue: String

    /// A path taken as given. Only for text known to be valid: an invalid one makes later
    /// appends throw.
    public init(unchecked: String) {
        rawValue = unchecked
    }

    /// libdbus' `dbus_validate_path`.
    public static let rule = TextRule(Validate.path)

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// The path's segments: `/org/navd` → `["org", "navd"]`, `/` → `[]`.
    public var segments: [Substring] {
        rawValue.split(separator: "/", omittingEmptySubsequences: true)
    }
}

/// Text libdbus checks before it may be used, a signature or an object path: made checked (throwing
/// `InvalidArgs` that names what was wrong), taken as given, or from a literal.
public protocol ValidatedText: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral
where StringLiteralType == String {
    /// The text.
    var rawValue: String { get }
    /// The text taken as given, for text known to be valid.
    init(unchecked: String)
    /// The check the text must pass.
    static var rule: TextRule { get }
}

/// The libdbus check one kind of `ValidatedText` must pass.
public struct TextRule: Sendable {
    let validator: Validator

    init(_ validator: Validator) {
        self.validator = validator
    }
}

extension ValidatedText {
    /// Checked text; throws `InvalidArgs` naming what libdbus refused and why.
    public init(_ s: String) throws(DBusError) {
        try Self.rule.validator(s)
        self.init(unchecked: s)
    }

    /// A literal. Literals are the programmer's, so an invalid one stops the process with its
    /// reason. Note that `Signature("…")` (or `ObjectPath("…")`) with a literal argument means this
    /// initializer, not the throwing one.
    public init(stringLiteral value: String) {
        self.init(unchecked: Self.rule.validator.literal(value))
    }

    /// The text.
    public var description: String { rawValue }
}
