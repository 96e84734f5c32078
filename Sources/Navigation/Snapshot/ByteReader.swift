/// Reads what `ByteWriter` wrote; every read checks its bounds, so damaged bytes give a `SnapshotError`,
/// never a crash.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// True when every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    /// A corrupt-document error naming the current position.
    func corrupt(_ reason: String) -> SnapshotError {
        .corrupt("\(reason) at byte \(offset)")
    }

    mutating func byte() throws(SnapshotError) -> UInt8 {
        guard offset < bytes.count else { throw corrupt("the document ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws(SnapshotError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            if shift == 63 && next > 1 { throw corrupt("an integer does not fit 64 bits") }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
            if shift > 63 { throw corrupt("an integer does not fit 64 bits") }
        }
    }

    /// A count of elements that each take at least one byte, so it cannot exceed the bytes left.
    mutating func count() throws(SnapshotError) -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - offset) else { throw corrupt("a count of \(value) exceeds the bytes left") }
        return Int(value)
    }

    /// An index below `limit`.
    mutating func index(below limit: Int, of what: String) throws(SnapshotError) -> Int {
        let value = try varint()
        guard value < UInt64(limit) else { throw corrupt("\(what) \(value) does not exist (there are \(limit))") }
        return Int(value)
    }

    mutating func signed() throws(SnapshotError) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func bool() throws(SnapshotError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw corrupt("a bool holds \(other)")
        }
    }

    mutating func double() throws(SnapshotError) -> Double {
        guard bytes.count - offset >= 8 else { throw corrupt("the document ends early") }
        var bits: UInt64 = 0
        for index in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return Double(bitPattern: bits)
    }

    mutating func string() throws(SnapshotError) -> String {
        let length = try count()
        let text = bytes.withUnsafeBufferPointer { buffer in
            String(validating: UnsafeBufferPointer(rebasing: buffer[offset..<offset + length]), as: UTF8.self)
        }
        guard let text else { throw corrupt("a string is not valid UTF-8") }
        offset += length
        return text
    }

    /// Checks that the next bytes are `expected` (a magic number) and skips them.
    mutating func expect(_ expected: [UInt8]) -> Bool {
        guard bytes.count - offset >= expected.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else { return false }
        offset += expected.count
        return true
    }
}
