extension DBusValue {
    /// The most arrays one signature may nest (D-Bus specification).
    public static let maximumArrayDepth = 32
    /// The most structs (dict entries included) one signature may nest.
    public static let maximumStructDepth = 32
    /// The most containers (arrays, structs, dict entries, variants) a message may nest in total.
    public static let maximumTotalDepth = 64

    /// Throws `InvalidArgs` unless this value can be appended to a message as it is: its
    /// signature is valid, array elements and dictionary entries match their declared types,
    /// keys are basic, structs are non-empty, strings are UTF-8 without NUL, paths and
    /// signatures are valid, and nesting stays within the specification's limits.
    public func validateForSending() throws(DBusError) {
        let text = signature.rawValue
        try Validate.singleSignature(text)
        _ = try BodyCheck.check([self], against: text)
    }
}

/// Checks values against a signature that libdbus has already validated, in one walk over
/// its bytes: every value's type must be the type at its position (so an array's elements
/// are compared with the element type once each, byte by byte, without building signature
/// strings), contents must be what libdbus accepts, and nesting stays within 64 containers.
///
/// The signature itself must have been validated (`dbus_signature_validate`) by the caller:
/// that bounds array and struct depth and guarantees well-formed types, so the walk can trust
/// its shape. Variants carry their own type and are validated where they occur.
enum BodyCheck {
    /// Checks `values` against the validated `signature` (a whole body's or one type's).
    /// Returns normally when they match it exactly; throws `InvalidArgs` naming the first
    /// mismatch or invalid content.
    static func check(_ values: [DBusValue], against signature: String) throws(DBusError) {
        try withBytes(signature) { bytes throws(DBusError) in
            var index = 0
            for value in values {
                guard index < bytes.count else { throw surplus(value) }
                index = try check(value, bytes, index, depth: 0)
            }
            if index != bytes.count {
                throw .invalidArgs("values of type '\(values.signature)' where '\(signature)' is expected")
            }
        }
    }

    /// Checks `value` against the complete type at `index`; returns the index after that type.
    private static func check(
        _ value: DBusValue, _ sig: UnsafeBufferPointer<UInt8>, _ index: Int, depth: Int
    ) throws(DBusError) -> Int {
        let code = sig[index]
        switch value {
        case .byte: return try expect(code, ascii("y"), value, sig, index)
        case .boolean: return try expect(code, ascii("b"), value, sig, index)
        case .int16: return try expect(code, ascii("n"), value, sig, index)
        case .uint16: return try expect(code, ascii("q"), value, sig, index)
        case .int32: return try expect(code, ascii("i"), value, sig, index)
        case .uint32: return try expect(code, ascii("u"), value, sig, index)
        case .int64: return try expect(code, ascii("x"), value, sig, index)
        case .uint64: return try expect(code, ascii("t"), value, sig, index)
        case .double: return try expect(code, ascii("d"), value, sig, index)
        case .string(let s):
            let next = try expect(code, ascii("s"), value, sig, index)
            try Validate.string(s)
            return next
        case .objectPath(let p):
            let next = try expect(code, ascii("o"), value, sig, index)
            try Validate.path(p.rawValue)
            return next
        case .signature(let g):
            let next = try expect(code, ascii("g"), value, sig, index)
            try Validate.signature(g.rawValue)
            return next
        case .array(let element, let values):
            guard code == ascii("a"), sig[index + 1] != ascii("{") else { throw mismatch(value, sig, index) }
            let end = skip(sig, index + 1)
            guard equal(element.rawValue, sig, index + 1, end) else { throw mismatch(value, sig, index) }
            try checkDepth(depth + 1)
            for element in values {
                _ = try checkElement(element, sig, index + 1, depth: depth + 1, in: value)
            }
            return end
        case .dictionary(let key, let valueType, let entries):
            guard code == ascii("a"), sig[index + 1] == ascii("{") else { throw mismatch(value, sig, index) }
            let keyAt = index + 2, valueAt = index + 3
            let valueEnd = skip(sig, valueAt)
            guard equal(key.rawValue, sig, keyAt, valueAt), equal(valueType.rawValue, sig, valueAt, valueEnd) else {
                throw mismatch(value, sig, index)
            }
            try checkDepth(depth + 2)
            for entry in entries {
                _ = try checkElement(entry.key, sig, keyAt, depth: depth + 2, in: value)
                _ = try checkElement(entry.value, sig, valueAt, depth: depth + 2, in: value)
            }
            return valueEnd + 1
        case .structure(let fields):
            guard code == ascii("(") else { throw mismatch(value, sig, index) }
            if fields.isEmpty { throw .invalidArgs("a struct needs at least one field") }
            try checkDepth(depth + 1)
            var next = index + 1
            for field in fields {
                guard sig[next] != ascii(")") else { throw mismatch(value, sig, index) }
                next = try check(field, sig, next, depth: depth + 1)
            }
            guard sig[next] == ascii(")") else { throw mismatch(value, sig, index) }
            return next + 1
        case .variant(let inner):
            let next = try expect(code, ascii("v"), value, sig, index)
            try checkDepth(depth + 1)
            try checkVariantContent(inner, depth: depth + 1)
            return next
        }
    }

    /// An element of a container: its type must be the container's element type exactly.
    private static func checkElement(
        _ element: DBusValue, _ sig: UnsafeBufferPointer<UInt8>, _ index: Int, depth: Int, in container: DBusValue
    ) throws(DBusError) -> Int {
        do {
            return try check(element, sig, index, depth: depth)
        } catch let error where error.message.hasPrefix(mismatchPrefix) {
            throw .invalidArgs(
                "\(mismatchPrefix)container of type '\(container.signature)' holds an element of type '\(element.signature)'")
        }
    }

    /// A variant's content carries its own signature: basic types need no signature check,
    /// containers get theirs validated by libdbus once, then walked.
    private static func checkVariantContent(_ inner: DBusValue, depth: Int) throws(DBusError) {
        switch inner {
        case .string(let s): try Validate.string(s)
        case .objectPath(let p): try Validate.path(p.rawValue)
        case .signature(let g): try Validate.signature(g.rawValue)
        case .variant(let innermost):
            try checkDepth(depth + 1)
            try checkVariantContent(innermost, depth: depth + 1)
        case .array, .dictionary, .structure:
            let text = inner.signature.rawValue
            try SignatureCache.validateSingle(text)
            try withBytes(text) { bytes throws(DBusError) in _ = try check(inner, bytes, 0, depth: depth) }
        default: return
        }
    }

    /// Runs `body` over the UTF-8 bytes of `text`, keeping the error typed.
    private static func withBytes(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(DBusError) -> Void
    ) throws(DBusError) {
        var text = text
        let failure: DBusError? = text.withUTF8 { bytes in
            do throws(DBusError) {
                try body(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// The index after the complete type at `index` of a validated signature.
    static func skip(_ sig: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        var i = index
        var open = 0
        while true {
            switch sig[i] {
            case ascii("a"):
                i += 1
                continue  // the element type follows
            case ascii("("), ascii("{"): open += 1
            case ascii(")"), ascii("}"): open -= 1
            default: break
            }
            i += 1
            if open == 0 { return i }
        }
    }

    private static func equal(_ text: String, _ sig: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == end - start else { return false }
        var i = start
        for byte in utf8 {
            if byte != sig[i] { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    private static func expect(
        _ code: UInt8, _ wanted: UInt8, _ value: DBusValue, _ sig: UnsafeBufferPointer<UInt8>, _ index: Int
    ) throws(DBusError) -> Int {
        guard code == wanted else { throw mismatch(value, sig, index) }
        return index + 1
    }

    /// How every type-mismatch message starts, so callers can restate it in their terms.
    static let mismatchPrefix = "type mismatch: "

    private static func mismatch(_ value: DBusValue, _ sig: UnsafeBufferPointer<UInt8>, _ index: Int) -> DBusError {
        let expected = String(decoding: UnsafeBufferPointer(rebasing: sig[index..<skip(sig, index)]), as: UTF8.self)
        return .invalidArgs("\(mismatchPrefix)a value of type '\(value.signature)' where '\(expected)' is expected")
    }

    private static func surplus(_ value: DBusValue) -> DBusError {
        .invalidArgs("\(mismatchPrefix)a value of type '\(value.signature)' beyond the expected signature")
    }

    private static func checkDepth(_ depth: Int) throws(DBusError) {
        if depth > DBusValue.maximumTotalDepth {
            throw .invalidArgs("value nests more than \(DBusValue.maximumTotalDepth) containers, the D-Bus limit")
        }
    }

    @inline(__always)
    private static func ascii(_ c: Unicode.Scalar) -> UInt8 { UInt8(c.value) }
}

extension DBusValue {
    /// Whether this value's signature is exactly `signature`, compared byte by byte without
    /// building the value's signature text. Contents are not checked (see `BodyCheck`).
    func hasType(_ signature: Signature) -> Bool {
        var text = signature.rawValue
        return text.withUTF8 { bytes in
            guard let end = Self.signatureEnd(of: self, in: bytes, at: 0) else { return false }
            return end == bytes.count
        }
    }

    /// Where this value's signature would end if it were written at `index` of `sig`, or nil
    /// when the bytes there differ from it.
    private static func signatureEnd(of value: DBusValue, in sig: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        func text(_ s: String, at start: Int) -> Int? {
            var i = start
            for byte in s.utf8 {
                guard i < sig.count, sig[i] == byte else { return nil }
                i += 1
            }
            return i
        }
        switch value {
        case .array(let element, _):
            return text("a", at: index).flatMap { text(element.rawValue, at: $0) }
        case .dictionary(let key, let valueType, _):
            return text("a{", at: index).flatMap { text(key.rawValue, at: $0) }
                .flatMap { text(valueType.rawValue, at: $0) }.flatMap { text("}", at: $0) }
        case .structure(let fields):
            guard var i = text("(", at: index) else { return nil }
            for field in fields {
                guard let next = signatureEnd(of: field, in: sig, at: i) else { return nil }
                i = next
            }
            return text(")", at: i)
        default:
            var code = ""
            value.appendSignature(to: &code)
            return text(code, at: index)
        }
    }
}
