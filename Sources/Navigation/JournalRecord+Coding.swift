/// The journal record's stored forms.
///
/// Version 2 (written): binary, built with `ByteWriter`:
///   magic "NVDJ" (4 bytes), varint version (2), varint revision, string cause, zigzag time, operation
///   (see ByteCoding+Values.swift for the operation's tags).
/// Version 1 (read only; never shipped, kept because it is cheap): a JSON document
///   `{"format":"navd-journal","version":1,…}`, recognised by its leading `{`.
extension JournalRecord {
    /// The version of the record format `encoded()` writes.
    public static let formatVersion = 2

    static let magic: [UInt8] = Array("NVDJ".utf8)

    /// The record as compact versioned bytes (format version 2, see the type's notes).
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 48)
        writer.raw(Self.magic)
        writer.varint(UInt64(Self.formatVersion))
        writer.varint(revision)
        writer.string(cause)
        writer.signed(time)
        writer.operation(operation)
        return writer.bytes
    }

    /// Decodes `encoded()`'s output (or a version-1 JSON record); another version or damaged bytes give a `SnapshotError`.
    public static func decode(_ bytes: [UInt8]) throws(SnapshotError) -> JournalRecord {
        if bytes.first == UInt8(ascii: "{") { return try decodeVersion1(bytes) }
        var reader = ByteReader(bytes)
        guard reader.expect(magic) else { throw .corrupt("not a navd journal record (no 'NVDJ' magic)") }
        let version = try reader.varint()
        guard version == UInt64(formatVersion) else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: formatVersion)
        }
        let record = JournalRecord(revision: try reader.varint(), cause: try reader.string(), time: try reader.signed(), operation: try reader.operation())
        guard reader.isAtEnd else { throw reader.corrupt("unexpected bytes after the record") }
        return record
    }

    private struct DocumentVersion1: Codable {
        var format: String
        var version: Int
        var revision: UInt64
        var cause: String
        var time: Int64
        var operation: Operation
    }

    /// The version-1 JSON form, as earlier builds wrote it (kept for tests of the reader).
    func encodedVersion1() -> [UInt8] {
        SnapshotCoding.encode(DocumentVersion1(format: "navd-journal", version: 1, revision: revision, cause: cause, time: time, operation: operation))
    }

    private static func decodeVersion1(_ bytes: [UInt8]) throws(SnapshotError) -> JournalRecord {
        let header = try SnapshotCoding.decode(SnapshotCoding.Header.self, from: bytes)
        guard header.format == "navd-journal" else {
            throw .corrupt("not a navd journal record (format '\(header.format)')")
        }
        guard header.version == 1 else {
            throw .unsupportedVersion(found: header.version, supported: formatVersion)
        }
        let document = try SnapshotCoding.decode(DocumentVersion1.self, from: bytes)
        return JournalRecord(revision: document.revision, cause: document.cause, time: document.time, operation: document.operation)
    }
}
