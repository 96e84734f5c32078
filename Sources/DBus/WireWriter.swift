/// The D-Bus wire format (little-endian), written into one byte array: the values of a
/// message body, and whole messages (`WireMessage`).
///
/// It writes what it is given without checking it: callers hand it values already checked
/// against their signature (`BodyCheck`), and libdbus validates the finished message again
/// when it is loaded (`dbus_message_demarshal`), refusing, never aborting on, anything malformed.
struct WireWriter {
    /// The bytes so far; offsets are relative to the start, which must be 8-aligned in the message.
    var bytes: [UInt8] = []

    /// Pads with zero bytes up to a multiple of `alignment`.
    @inline(__always)
    mutating func align(_ alignment: Int) {
        var count = bytes.count
        while count & (alignment - 1) != 0 {
            bytes.append(0)
            count += 1
        }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        align(2)
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint32(_ value: UInt32) {
        align(4)
        appendLittleEndian(value)
    }

    mutating func uint64(_ value: UInt64) {
        align(8)
        appendLittleEndian(UInt32(truncatingIfNeeded: value))
        appendLittleEndian(UInt32(truncatingIfNeeded: value >> 32))
    }

    /// The four bytes of `value`, least significant first (no alignment).
    @inline(__always)
    private mutating func appendLittleEndian(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    /// Overwrites the four bytes at `offset` with `value`, least significant first.
    mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value >> 24)
    }

    /// `s` or `o`: a 32-bit length, the UTF-8 bytes, a NUL.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            uint32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    /// `g`: a one-byte length, the bytes, a NUL.
    mutating func signature(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(truncatingIfNeeded: utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    /// Writes an array: its length, the padding to its elements' alignment, and what `body`
    /// writes; the length is filled in afterwards (it excludes that first padding).
    mutating func array(elementAlignment: Int, _ body: (inout WireWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        align(elementAlignment)
        let start = bytes.count
        body(&self)
        patchUInt32(UInt32(bytes.count - start), at: lengthAt)
    }

    /// One value in its wire form.
    mutating func value(_ value: DBusValue) {
        switch value {
        case .byte(let v): byte(v)
        case .boolean(let v): uint32(v ? 1 : 0)
        case .int16(let v): uint16(UInt16(bitPattern: v))
        case .uint16(let v): uint16(v)
        case .int32(let v): uint32(UInt32(bitPattern: v))
        case .uint32(let v): uint32(v)
        case .int64(let v): uint64(UInt64(bitPattern: v))
        case .uint64(let v): uint64(v)
        case .double(let v): uint64(v.bitPattern)
        case .string(let v): text(v)
        case .objectPath(let v): text(v.rawValue)
        case .signature(let v): signature(v.rawValue)
        case .array(let element, let values):
            array(elementAlignment: Self.alignment(of: element.rawValue)) { writer in
                for element in values { writer.value(element) }
            }
        case .dictionary(_, _, let entries):
            array(elementAlignment: 8) { writer in
                for entry in entries {
                    writer.align(8)
                    writer.value(entry.key)
                    writer.value(entry.value)
                }
            }
        case .structure(let fields):
            align(8)
            for field in fields { self.value(field) }
        case .variant(let inner):
            if let code = inner.basicTypeCode {
                // A basic type's signature is its one code: no signature text is built.
                bytes.append(1)
                bytes.append(code)
                bytes.append(0)
            } else {
                signature(inner.signature.rawValue)
            }
            self.value(inner)
        }
    }

    /// The alignment of the complete type that `signature` starts with.
    static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }
}
