/// A D-Bus type signature such as `sa{sv}`: zero or more complete types.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    public let rawValue: String

    /// A validated signature; throws `InvalidArgs` when libdbus' `dbus_signature_validate`
    /// refuses it (bad type codes, nesting beyond 32 arrays or 32 structs, over 255 bytes).
    public init(_ s: String) throws(DBusError) {
        try Validate.signature(s)
        rawValue = s
    }

    /// A signature taken as given. Only for text known to be valid (literals, libdbus output):
    /// an invalid one makes later appends throw.
    public init(unchecked: String) {
        rawValue = unchecked
    }

    /// A literal signature, such as `.array(element: "s", [])`. Literals are the
    /// programmer's, so an invalid one stops the process with its reason. Note that
    /// `Signature("…")` with a literal argument means this initializer, not the throwing one.
    public init(stringLiteral value: String) {
        rawValue = Validate.signature.literal(value)
    }

    /// The signature text.
    public var description: String { rawValue }

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

/// A D-Bus object path such as `/org/example/Service1`.
public struct ObjectPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path text.
    public let rawValue: String

    /// A validated path; throws `InvalidArgs` unless `dbus_validate_path` accepts it.
    public init(_ s: String) throws(DBusError) {
        try Validate.path(s)
        rawValue = s
    }

    /// A path taken as given. Only for text known to be valid: an invalid one makes later
    /// appends throw.
    public init(unchecked: String) {
        rawValue = unchecked
    }

    /// A literal path such as `"/org/example/Service1"`. An invalid literal stops the process
    /// with its reason; `ObjectPath("…")` with a literal argument means this initializer.
    public init(stringLiteral value: String) {
        rawValue = Validate.path.literal(value)
    }

    /// The path text.
    public var description: String { rawValue }

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// The path's segments: `/org/navd` → `["org", "navd"]`, `/` → `[]`.
    public var segments: [Substring] {
        rawValue.split(separator: "/", omittingEmptySubsequences: true)
    }
}
