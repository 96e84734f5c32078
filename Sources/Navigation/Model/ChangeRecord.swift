// Who changed what (docs/devtools.md, GetChanges): per kept change, the request that made it and the caller,
// as plain values the service gives the model (the model knows no D-Bus: the arguments are the service's own
// bytes), kept with the history step and stored with it in the journal record and the snapshot.

/// The request and the caller behind one change, as the service recorded them when the change was made.
public struct ChangeRecord: Hashable, Sendable {
    /// The method that made the change (`Push`, `Send`, …); "" for a reconciliation.
    public var method: String
    /// The call's arguments in the service's own encoding (opaque here).
    public var arguments: [UInt8] = []
    /// The caller's unique bus name, when a call made the change.
    public var sender: String?
    /// The caller's user id and process id, when the bus told them.
    public var uid, pid: UInt32?
    /// The caller's process name, when known.
    public var command: String?
    /// What else the change's kind records: `event`, `source`, `outcome` for Send, `reason` for a reconciliation.
    public var details: [String: String] = [:]
}

extension ChangeRecord {
    /// A record of `method` called by `sender`, its other parts empty until the service sets them (in an
    /// extension, so that this module and its tests keep the memberwise init, which takes every part).
    public init(method: String, sender: String? = nil) {
        self.init(method: method, arguments: [], sender: sender)
    }
}

/// One kept change as `GetChanges` lists it.
public struct ChangeInfo: Hashable, Sendable {
    /// The history line (revision, cause, time).
    public var entry: HistoryEntry
    /// The request and the caller; nil for a change kept from before they were recorded (0.1.0's state).
    public var record: ChangeRecord?
    /// The selected tab after the change ("" when untabbed); nil when its state was not kept.
    public var tab: String?
    /// The route on top after the change; nil when its state was not kept.
    public var top: String?
}

extension Coordinator {
    /// Attaches `record` to the newest history step when that step made `revision` (the change just performed).
    public mutating func record(_ record: ChangeRecord, forRevision revision: UInt64) {
        var record = Optional(record)
        self.record(&record, forRevision: revision)
    }

    /// `record(_:forRevision:)`, moving `record` into the step (it is left nil when it was attached).
    public mutating func record(_ record: inout ChangeRecord?, forRevision revision: UInt64) {
        guard state.history.top?.element.entry.revision == revision else { return }
        state.history.updateNewest { step in swap(&step.record, &record) }
    }

    /// The kept changes (those `History` lists) with revision ≥ `from`, oldest first, at most `limit`.
    public func changes(from: UInt64, limit: Int) -> [ChangeInfo] {
        guard limit > 0 else { return [] }
        var steps: [KeptChange] = []
        state.history.walk(max(0, graph.limits.maxHistory)) { _, step in
            guard step.entry.revision >= from else { return false }
            steps.append(step)
            return true
        }
        return steps.reversed().prefix(limit).map { step in
            ChangeInfo(entry: step.entry, record: step.record, tab: step.after?.selectedTab, top: step.after?.topRoute)
        }
    }
}

extension ByteWriter {
    /// A change record: string method, bytes arguments, then optional sender, uid, pid, command (bool + value
    /// each), then varint count + (string key, string value) details in key order.
    mutating func changeRecord(_ record: ChangeRecord) {
        string(record.method)
        count(record.arguments.count)
        raw(record.arguments)
        caller(of: record)
        count(record.details.count)
        for (key, value) in record.details.sorted(by: { $0.key < $1.key }) {
            string(key)
            string(value)
        }
    }

    /// The caller part of a change record: optional sender, uid, pid, command (bool + value each).
    mutating func caller(of record: ChangeRecord) {
        optional(record.sender) { $0.string($1) }
        optional(record.uid) { $0.varint(UInt64($1)) }
        optional(record.pid) { $0.varint(UInt64($1)) }
        optional(record.command) { $0.string($1) }
    }

    private mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}

extension ByteReader {
    /// A change record as `ByteWriter.changeRecord` wrote it.
    mutating func changeRecord() throws(SnapshotError) -> ChangeRecord {
        let method = try string()
        let length = try count()
        var arguments: [UInt8] = []
        arguments.reserveCapacity(length)
        for _ in 0..<length { arguments.append(try byte()) }
        var record = ChangeRecord(method: method, arguments: arguments)
        try caller(into: &record)
        for _ in 0..<(try count()) {
            let key = try string()
            record.details[key] = try string()
        }
        return record
    }

    /// The caller part as `ByteWriter.caller(of:)` wrote it.
    mutating func caller(into record: inout ChangeRecord) throws(SnapshotError) {
        if try bool() { record.sender = try string() }
        if try bool() { record.uid = try uint32("uid") }
        if try bool() { record.pid = try uint32("pid") }
        if try bool() { record.command = try string() }
    }

    private mutating func uint32(_ what: String) throws(SnapshotError) -> UInt32 {
        let value = try varint()
        guard let narrow = UInt32(exactly: value) else { throw corrupt("\(what) \(value) is out of range") }
        return narrow
    }
}
