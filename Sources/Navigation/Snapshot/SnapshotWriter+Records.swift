// The change records in a snapshot (version 7; the format is in SnapshotWriter.swift): each distinct text (a
// method, the arguments' bytes, a caller, a detail's key or value) is in the texts table once and a record refers
// to it, so the many changes one caller makes with the same call cost a few bytes each, not their texts again.

extension SnapshotWriter {
    /// A change record (Model/ChangeRecord.swift) as references into the texts table: varint method, varint
    /// arguments, varint caller (its sender, uid, pid and command as ByteWriter.changeRecord writes them), varint
    /// count + (varint key, varint value) details in key order.
    mutating func changeRecord(_ record: ChangeRecord, to body: inout ByteWriter) {
        body.count(text(Array(record.method.utf8)))
        body.count(text(record.arguments))
        var caller = ByteWriter(capacity: 32)
        caller.caller(of: record)
        body.count(text(caller.bytes))
        body.count(record.details.count)
        for (key, value) in record.details.sorted(by: { $0.key < $1.key }) {
            body.count(text(Array(key.utf8)))
            body.count(text(Array(value.utf8)))
        }
    }

    /// A history line (version 7): its revision and time as what they are less than the newer line's, `newer`
    /// (then this line), its cause as a text.
    mutating func entry(_ entry: HistoryEntry, newer: inout HistoryEntry, to body: inout ByteWriter) {
        body.signed(Int64(bitPattern: newer.revision &- entry.revision))
        body.count(text(Array(entry.cause.utf8)))
        body.signed(newer.time &- entry.time)
        newer = entry
    }

    /// The number of `bytes` in the texts table: varint length, then the bytes.
    private mutating func text(_ bytes: [UInt8]) -> Int {
        texts.number(bytes) { table in
            table.count(bytes.count)
            table.raw(bytes)
        }
    }
}

extension ByteReader {
    /// A change record as `SnapshotWriter.changeRecord(_:to:)` wrote it, its texts from `texts`.
    mutating func changeRecord(texts: [[UInt8]]) throws(SnapshotError) -> ChangeRecord {
        func text() throws(SnapshotError) -> [UInt8] { texts[try index(below: texts.count, of: "text")] }
        func string() throws(SnapshotError) -> String {
            let bytes = try text()
            guard let string = String(validating: bytes, as: UTF8.self) else { throw corrupt("a text is not UTF-8") }
            return string
        }
        var record = ChangeRecord(method: try string(), arguments: try text())
        var caller = ByteReader(try text())
        try caller.caller(into: &record)
        guard caller.isAtEnd else { throw corrupt("unexpected bytes after a caller") }
        for _ in 0..<(try count()) {
            let key = try string()
            record.details[key] = try string()
        }
        return record
    }

    /// A history line as `SnapshotWriter.entry(_:newer:to:)` wrote it, `newer` the line before it (then this one).
    mutating func entry(texts: [[UInt8]], newer: inout HistoryEntry) throws(SnapshotError) -> HistoryEntry {
        let revision = newer.revision &- UInt64(bitPattern: try signed())
        guard let cause = String(validating: texts[try index(below: texts.count, of: "text")], as: UTF8.self) else {
            throw corrupt("a text is not UTF-8")
        }
        let entry = HistoryEntry(revision: revision, cause: cause, time: newer.time &- (try signed()))
        newer = entry
        return entry
    }

    /// The texts table: varint count, then each text as varint length + bytes.
    mutating func texts() throws(SnapshotError) -> [[UInt8]] {
        var texts: [[UInt8]] = []
        for _ in 0..<(try count()) {
            let length = try count()
            var bytes: [UInt8] = []
            bytes.reserveCapacity(length)
            for _ in 0..<length { bytes.append(try byte()) }
            texts.append(bytes)
        }
        return texts
    }
}
