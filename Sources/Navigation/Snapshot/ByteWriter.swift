/// Appends the compact binary forms of snapshots and journal records (see `ByteReader` for reading).
///
/// Primitives: unsigned integers are LEB128 varints (7 bits a byte, low first); signed integers are
/// zigzag-mapped, then varints; doubles are their 8-byte bit pattern, little-endian; bools one byte
/// (0 or 1); strings a varint byte count, then UTF-8; sequences a varint element count, then elements.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func raw(_ values: [UInt8]) {
        bytes.append(contentsOf: values)
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func count(_ value: Int) {
        varint(UInt64(value))
    }

    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func double(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
}
