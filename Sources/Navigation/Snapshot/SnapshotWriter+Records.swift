// The change records in a snapshot (version 7; the format is in SnapshotWriter.swift): each distinct text (a
// method, the arguments' bytes, a caller, a detail's key or value) is in the texts table once and a record refers
// to it, so the many changes one caller makes with the same call cost a few bytes each, not their texts again.

extension SnapshotWriter {
    /// A change record (Model/ChangeRecord.swift) as references into the texts table: varint method, varint
    /// arguments, varint caller (its sender, uid, pid and command as ByteWriter.changeRecord writes them), varint
    /// count + (varint key, varint value) details in key order.
    mutating func changeRecord(_ record: ChangeRecord, to body: inout ByteWriter) {
        body.count(text(record.method))
        body.count(argumentsText(record.arguments))
        body.count(callerText(of: record))
        body.count(record.details.count)
        for (key, value) in record.details.sorted(by: { $0.key < $1.key }) {
            body.count(text(key))
            body.count(text(value))
        }
    }

    /// A history line (version 7): its revision and time as what they are less than the newer line's, `newer`
    /// (then this line), its cause as a text.
    mutating func entry(_ entry: HistoryEntry, newer: inout HistoryEntry, to body: inout ByteWriter) {
        body.signed(Int64(bitPattern: newer.revision &- entry.revision))
        body.count(text(entry.cause))
        body.signed(newer.time &- entry.time)
        newer = entry
    }

    /// The number of `string`'s UTF-8 in the texts table.
    private mutating func text(_ string: String) -> Int {
        recentText(\.strings, string) { Array($0.utf8) }
    }

    /// The number of a record's arguments in the texts table.
    private mutating func argumentsText(_ arguments: [UInt8]) -> Int {
        recentText(\.bytes, arguments) { $0 }
    }

    /// The number of the record's caller, as `ByteWriter.caller(of:)` writes it, in the texts table.
    private mutating func callerText(of record: ChangeRecord) -> Int {
        recentText(\.callers, Caller(sender: record.sender, uid: record.uid, pid: record.pid, command: record.command)) { _ in
            var bytes = ByteWriter(capacity: 32)
            bytes.caller(of: record)
            return bytes.bytes
        }
    }

    /// The number of `value`, whose bytes `bytes` makes, in the texts table: a recent one of its `kind` is found by
    /// comparing, another is made into bytes and looked up, then remembered.
    private mutating func recentText<Value: Equatable>(
        _ kind: WritableKeyPath<RecentTexts, Recent<Value>>, _ value: Value, _ bytes: (Value) -> [UInt8]
    ) -> Int {
        if let known = recentTexts[keyPath: kind].number(of: value) { return known }
        let number = text(bytes(value))
        recentTexts[keyPath: kind].remember(value, number)
        return number
    }

    /// The number of `bytes` in the texts table: varint length, then the bytes.
    private mutating func text(_ bytes: [UInt8]) -> Int {
        texts.number(bytes) { table in
            table.count(bytes.count)
            table.raw(bytes)
        }
    }

    /// A record's caller, compared whole.
    struct Caller: Equatable {
        var sender: String?
        var uid, pid: UInt32?
        var command: String?
    }

    /// The texts numbered last, a few of each kind: a step's method, arguments, caller and cause are most often
    /// those of a step written just before it, and are found here by comparing, without making their bytes or
    /// hashing them. The numbers are those of the texts table, so the document is the same.
    struct RecentTexts {
        var strings = Recent<String>()
        var bytes = Recent<[UInt8]>()
        var callers = Recent<Caller>()
    }

    /// The last few values numbered and their numbers, the oldest replaced first.
    struct Recent<Value: Equatable> {
        private var entries: [(value: Value, number: Int)] = []
        private var next = 0

        /// The number of `value` when it is a recent one.
        func number(of value: Value) -> Int? {
            for entry in entries where entry.value == value { return entry.number }
            return nil
        }

        /// Remembers `value`'s number, forgetting the oldest of six.
        mutating func remember(_ value: Value, _ number: Int) {
            if entries.count < 6 {
                entries.append((value, number))
            } else {
                entries[next] = (value, number)
                next = (next + 1) % entries.count
            }
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
