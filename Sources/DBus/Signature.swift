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

    /// A literal signature, unchecked; literals are written by programmers, and tests cover them.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// The signature text.
    public var description: String { rawValue }

    /// The empty signature (no values).
    public static let empty = Signature(unchecked: "")

    /// The signatures of the basic types, usable as dictionary keys.
    public static let byte: Signature = "y", boolean: Signature = "b", int16: Signature = "n",
        uint16: Signature = "q", int32: Signature = "i", uint32: Signature = "u",
        int64: Signature = "x", uint64: Signature = "t", double: Signature = "d",
        string: Signature = "s", objectPath: Signature = "o", signature: Signature = "g",
        variant: Signature = "v"

    /// Whether this is a single complete type (what a variant or an array element holds).
    public var isSingleCompleteType: Bool {
        (try? Validate.singleSignature(rawValue)) != nil
    }
}

/// A D-Bus object path such as `/org/navd/Navigator1`.
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

    /// A literal path, unchecked.
    public init(stringLiteral value: String) {
        rawValue = value
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
