import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Message {
    /// Appends `values` to the body through libdbus' iterator API. The values' signature is
    /// validated by libdbus once (at most 255 bytes with the body so far), then every value
    /// is checked against it in one walk (`BodyCheck`), so an invalid value throws
    /// `InvalidArgs` and leaves the body unchanged. A message already sent or received is
    /// locked and throws too.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        if values.isEmpty { return }
        try append(values, signature: values.signature.rawValue)
    }

    private func append(_ values: [DBusValue], signature body: String) throws(DBusError) {
        if serial != 0 {
            throw .invalidArgs("a message that was sent or received cannot be changed")
        }
        let existing = bodySignatureLength ?? dbus_message_get_signature(raw).map { strlen($0) } ?? 0
        if existing + body.utf8.count > 255 {
            throw .invalidArgs("the message body's signature would exceed 255 bytes")
        }
        try SignatureCache.validate(body)
        try BodyCheck.check(values, against: body)
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        bodySignatureLength = nil  // unknown should a write fail half-way
        for value in values { try Self.write(value, into: &iter) }
        bodySignatureLength = existing + body.utf8.count
    }

    /// Appends one value (already validated) at `iter`.
    private static func write(_ value: DBusValue, into iter: inout DBusMessageIter) throws(DBusError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.byte, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, TypeCode.boolean, &v)
        case .int16(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int16, &v)
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint16, &v)
        case .int32(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int32, &v)
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint32, &v)
        case .int64(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int64, &v)
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint64, &v)
        case .double(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.double, &v)
        case .string(let s): ok = appendText(s, code: TypeCode.string, into: &iter)
        case .objectPath(let p): ok = appendText(p.rawValue, code: TypeCode.objectPath, into: &iter)
        case .signature(let g): ok = appendText(g.rawValue, code: TypeCode.signature, into: &iter)
        case .array(let element, let values):
            try writeContainer(TypeCode.array, contained: element.rawValue, into: &iter) { sub throws(DBusError) in
                for v in values { try write(v, into: &sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            let contained = "{" + key.rawValue + valueType.rawValue + "}"
            try writeContainer(TypeCode.array, contained: contained, into: &iter) { sub throws(DBusError) in
                for entry in entries {
                    try writeContainer(TypeCode.dictEntry, contained: nil, into: &sub) { pair throws(DBusError) in
                        try write(entry.key, into: &pair)
                        try write(entry.value, into: &pair)
                    }
                }
            }
        case .structure(let fields):
            try writeContainer(TypeCode.structure, contained: nil, into: &iter) { sub throws(DBusError) in
                for field in fields { try write(field, into: &sub) }
            }
        case .variant(let inner):
            try writeContainer(TypeCode.variant, contained: variantContent(inner), into: &iter) {
                sub throws(DBusError) in try write(inner, into: &sub)
            }
        }
        if ok == 0 { throw outOfMemory }
    }

    /// The signature a variant announces for `inner`: its type code for a basic type or a variant.
    private static func variantContent(_ inner: DBusValue) -> String {
        if let code = inner.basicTypeCode { return String(Unicode.Scalar(code)) }
        return inner.signature.rawValue
    }

    private static func appendText(_ text: String, code: Int32, into iter: inout DBusMessageIter) -> dbus_bool_t {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, code, &p)
        }
    }

    private static func writeContainer(
        _ code: Int32, contained: String?, into iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let contained {
            opened = contained.withCString { dbus_message_iter_open_container(&iter, code, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, code, nil, &sub)
        }
        if opened == 0 { throw outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        if dbus_message_iter_close_container(&iter, &sub) == 0 { throw outOfMemory }
    }

    private static var outOfMemory: DBusError {
        DBusError(name: DBusErrorName.noMemory, message: "libdbus ran out of memory while building a message")
    }
}
