extension DBusValue {
    /// An `as` array of strings.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(element: .string, strings.map { .string($0) })
    }

    /// An `a{sv}` dictionary in the given order; each value is wrapped in `.variant`.
    public static func vardict(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            pairs.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// An `a{ss}` dictionary in the given order.
    public static func stringDictionary(_ pairs: [(String, String)]) -> DBusValue {
        .dictionary(
            key: .string, value: .string,
            pairs.map { DBusDictEntry(key: .string($0.0), value: .string($0.1)) })
    }

    /// The text of a `s` value; nil for every other type (object paths and signatures too,
    /// so a type check through this accessor stays strict).
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The path of an `o` value; nil otherwise.
    public var objectPathValue: ObjectPath? {
        if case .objectPath(let p) = self { return p }
        return nil
    }

    /// The signature of a `g` value; nil otherwise.
    public var signatureValue: Signature? {
        if case .signature(let g) = self { return g }
        return nil
    }

    /// A `t` value, or any unsigned integer type widened; nil otherwise.
    public var uint64Value: UInt64? {
        switch self {
        case .uint64(let v): v
        case .uint32(let v): UInt64(v)
        case .uint16(let v): UInt64(v)
        case .byte(let v): UInt64(v)
        default: nil
        }
    }

    /// An `x` value, or any integer type that fits in Int64; nil otherwise.
    public var int64Value: Int64? {
        switch self {
        case .int64(let v): v
        case .int32(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .byte(let v): Int64(v)
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    /// A `u` value (or `q`, `y` widened); nil otherwise.
    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let v): v
        case .uint16(let v): UInt32(v)
        case .byte(let v): UInt32(v)
        default: nil
        }
    }

    /// A `i` value (or `n`, `q`, `y` widened); nil otherwise.
    public var int32Value: Int32? {
        switch self {
        case .int32(let v): v
        case .int16(let v): Int32(v)
        case .uint16(let v): Int32(v)
        case .byte(let v): Int32(v)
        default: nil
        }
    }

    /// A `b` value; nil otherwise.
    public var boolValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    /// A `d` value; nil otherwise (integers are not converted).
    public var doubleValue: Double? {
        if case .double(let d) = self { return d }
        return nil
    }

    /// The elements of an array; nil for other types (a dictionary is not an array here).
    public var arrayValues: [DBusValue]? {
        if case .array(_, let values) = self { return values }
        return nil
    }

    /// The fields of a struct; nil otherwise.
    public var structFields: [DBusValue]? {
        if case .structure(let fields) = self { return fields }
        return nil
    }

    /// The value inside a variant (one level); nil for non-variants.
    public var variantValue: DBusValue? {
        if case .variant(let inner) = self { return inner }
        return nil
    }

    /// The entries of a dictionary, in order; nil otherwise.
    public var dictEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = self { return entries }
        return nil
    }

    /// The entries of an `a{s…}` dictionary as (key, value) pairs with variants unwrapped one
    /// level; nil unless this is a dictionary with string keys.
    public var stringKeyedPairs: [(String, DBusValue)]? {
        guard case .dictionary(let key, _, let entries) = self, key == .string else { return nil }
        return entries.map { entry in
            (entry.key.stringValue ?? "", entry.value.variantValue ?? entry.value)
        }
    }
}
