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
    public var uint64Value: UInt64? { widenedInteger() }

    /// An `x` value, or any integer type that fits in Int64; nil otherwise.
    public var int64Value: Int64? {
        if case .uint64(let v) = self { return Int64(exactly: v) }
        return widenedInteger()
    }

    /// A `u` value (or `q`, `y` widened); nil otherwise.
    public var uint32Value: UInt32? { widenedInteger() }

    /// A `i` value (or `n`, `q`, `y` widened); nil otherwise.
    public var int32Value: Int32? { widenedInteger() }

    /// The integer held, as `T`, when every value of its D-Bus type fits in `T` (the same
    /// signedness and no wider, or unsigned and narrower); nil otherwise, so no accessor ever
    /// converts a value whose type could hold one that does not fit.
    private func widenedInteger<T: FixedWidthInteger>() -> T? {
        func widened<S: FixedWidthInteger>(_ v: S) -> T? {
            let fits = S.isSigned == T.isSigned ? S.bitWidth <= T.bitWidth : !S.isSigned && S.bitWidth < T.bitWidth
            return fits ? T(v) : nil
        }
        return switch self {
        case .byte(let v): widened(v)
        case .int16(let v): widened(v)
        case .uint16(let v): widened(v)
        case .int32(let v): widened(v)
        case .uint32(let v): widened(v)
        case .int64(let v): widened(v)
        case .uint64(let v): widened(v)
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
