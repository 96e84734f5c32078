import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Message {
    /// The body's values, read through libdbus' iterator API.
    ///
    /// libdbus has already validated a received message, so this cannot crash on peer data;
    /// a unix file descriptor (`h`), which this module does not support, throws `NotSupported`.
    public func body() throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        if dbus_message_iter_init(raw, &iter) == 0 { return [] }
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            values.append(try Self.read(&iter, depth: 0))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func read(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        if depth > DBusValue.maximumTotalDepth {
            throw .invalidArgs("message nests more than \(DBusValue.maximumTotalDepth) containers")
        }
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case TypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case TypeCode.double: return .double(basic(&iter, Double(0)))
        case TypeCode.string: return .string(text(&iter))
        case TypeCode.objectPath: return .objectPath(ObjectPath(unchecked: text(&iter)))
        case TypeCode.signature: return .signature(Signature(unchecked: text(&iter)))
        case TypeCode.unixFD:
            throw DBusError(
                name: DBusErrorName.notSupported,
                message: "unix file descriptors (type 'h') are not supported")
        case TypeCode.array:
            return try readArray(&iter, depth: depth)
        case TypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub, depth: depth + 1))
        case TypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid else {
                throw .invalidArgs("empty variant")
            }
            return .variant(try read(&sub, depth: depth + 1))
        default:
            throw .invalidArgs("unexpected type code \(code) in message body")
        }
    }

    private static func readArray(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        let elementCode = dbus_message_iter_get_element_type(&iter)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        guard elementCode == TypeCode.dictEntry else {
            // A basic element type needs no signature text from libdbus (no allocation).
            let element = basicSignature(elementCode) ?? Signature(unchecked: String(currentSignature(&iter).dropFirst()))
            return .array(element: element, try readAll(&sub, depth: depth + 1))
        }
        let (key, value) = dictionaryTypes(&iter)
        var entries: [DBusDictEntry] = []
        while dbus_message_iter_get_arg_type(&sub) == TypeCode.dictEntry {
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&sub, &pair)
            let entryKey = try read(&pair, depth: depth + 2)
            guard dbus_message_iter_next(&pair) != 0 else { throw .invalidArgs("dictionary entry without two fields") }
            entries.append(DBusDictEntry(key: entryKey, value: try read(&pair, depth: depth + 2)))
            dbus_message_iter_next(&sub)
        }
        return .dictionary(key: key, value: value, entries)
    }

    /// The key and value types of the dictionary at `iter`; `a{sv}` (the common case) and
    /// basic keys reuse the shared signatures instead of building new strings.
    private static func dictionaryTypes(_ iter: inout DBusMessageIter) -> (Signature, Signature) {
        guard let pointer = dbus_message_iter_get_signature(&iter) else { return (.string, .variant) }
        defer { dbus_free(pointer) }
        if strcmp(pointer, "a{sv}") == 0 { return (.string, .variant) }  // no Swift string built
        // "a{kv}": the key is one basic type code, the value the rest.
        let inner = String(cString: pointer).dropFirst(2).dropLast()
        return (
            basicSignature(Int32(inner.utf8.first ?? 0)) ?? Signature(unchecked: String(inner.prefix(1))),
            Signature(unchecked: String(inner.dropFirst()))
        )
    }

    /// The shared signature of a basic type code (and `v`), or nil for containers.
    private static func basicSignature(_ code: Int32) -> Signature? {
        switch code {
        case TypeCode.byte: .byte
        case TypeCode.boolean: .boolean
        case TypeCode.int16: .int16
        case TypeCode.uint16: .uint16
        case TypeCode.int32: .int32
        case TypeCode.uint32: .uint32
        case TypeCode.int64: .int64
        case TypeCode.uint64: .uint64
        case TypeCode.double: .double
        case TypeCode.string: .string
        case TypeCode.objectPath: .objectPath
        case TypeCode.signature: .signature
        case TypeCode.variant: .variant
        default: nil
        }
    }

    private static func readAll(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            values.append(try read(&iter, depth: depth))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private static func text(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func currentSignature(_ iter: inout DBusMessageIter) -> String {
        guard let pointer = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(pointer) }
        return String(cString: pointer)
    }
}
