/// The journal record's stored form: binary, built with `ByteWriter`:
///   magic "NVDJ" (4 bytes), varint version (4), the history line (varint revision, string cause, zigzag
///   time), operation (see Model/Operation.swift for the operation's tags), then (version 4) bool and, if true, the change record
///   (Model/ChangeRecord.swift). Version 3, which 0.1.0 wrote, is version 4 without the change record: it is
///   still read, and its changes have no record. Version 2, from development builds before 0.1.0, is no longer
///   read.
extension JournalRecord {
    /// The version of the record format `encoded()` writes.
    public static let formatVersion = 4

    static let magic: [UInt8] = Array("NVDJ".utf8)

    /// The record as compact versioned bytes (see the type's notes).
    public func encoded() -> [UInt8] {
        Self.encoded(entry: entry, operation: operation, changeRecord: changeRecord)
    }

    /// `encoded()` of the record of these parts, read where they are: a caller that holds them apart (a change and
    /// the record the service made for it) builds no record to encode it.
    public static func encoded(entry: HistoryEntry, operation: Operation, changeRecord: ChangeRecord?) -> [UInt8] {
        var writer = ByteWriter(capacity: 112 + (changeRecord?.arguments.count ?? 0))  // read in place, not copied out
        writer.raw(magic)
        writer.varint(UInt64(formatVersion))
        writer.historyEntry(entry)
        writer.operation(operation)
        writer.bool(changeRecord != nil)
        if let changeRecord { writer.changeRecord(changeRecord) }
        return writer.bytes
    }

    /// Decodes `encoded()`'s output; another version (the JSON version 1 included) or damaged bytes give a
    /// `SnapshotError`.
    public static func decode(_ bytes: [UInt8]) throws(SnapshotError) -> JournalRecord {
        if JSONDocument.isDocument(bytes, format: "navd-journal") {
            throw .unsupportedVersion(found: JSONDocument.version, supported: formatVersion)
        }
        var reader = ByteReader(bytes)
        guard reader.expect(magic) else { throw .corrupt("not a navd journal record (no 'NVDJ' magic)") }
        let version = try reader.varint()
        guard version == UInt64(formatVersion) || version == 3 else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: formatVersion)
        }
        var record = JournalRecord(entry: try reader.historyEntry(), operation: try reader.operation())
        if version >= 4, try reader.bool() { record.changeRecord = try reader.changeRecord() }
        guard reader.isAtEnd else { throw reader.corrupt("unexpected bytes after the record") }
        return record
    }
}

extension ByteWriter {
    /// A history line as a journal record holds it (and snapshots of versions 4 to 6 did): varint revision,
    /// string cause, zigzag time.
    mutating func historyEntry(_ entry: HistoryEntry) {
        varint(entry.revision)
        string(entry.cause)
        signed(entry.time)
    }
}

extension ByteReader {
    /// A history line as `ByteWriter.historyEntry(_:)` writes it.
    mutating func historyEntry() throws(SnapshotError) -> HistoryEntry {
        HistoryEntry(revision: try varint(), cause: try string(), time: try signed())
    }
}
