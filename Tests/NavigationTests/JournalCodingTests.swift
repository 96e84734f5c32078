import Testing
@testable import Navigation

/// Journal record format version 4 (and 0.1.0's version 3, still read): every operation round-trips; damaged bytes are clear errors.
@Suite(.timeLimit(.minutes(1)))
struct JournalCodingTests {
    static var nested: InputValue { .map([
        "list": .list([.uint(UInt64.max), .double(-.infinity), .record([.bool(false), .other("ay"), .string("")])]),
        "deep": .variant(.variant(.map(["é ☃": .list([.int(Int64.min), .int(Int64.max)])]))),
        "empty": .map([:]),
    ]) }

    /// One of each operation case, with awkward arguments.
    // Computed, not stored: LeakSanitizer cannot follow Swift's tagged enum payload pointers held
    // in globals and would report these test values as leaks.
    static var operations: [Navigation.Operation] { [
        .push(route: "news-item", params: ["id": .int(-1), "nested": nested, "d": .double(-0.0)]),
        .pop, .popTo(target: "#3"), .popTo(target: ""), .popToRoot,
        .replace(route: "r", params: [:]),
        .setStack([ScreenRequest(route: "a"), ScreenRequest(route: "b", params: ["p": .string("q"), "n": nested])]),
        .setStack([]),
        .present(route: "modal", params: ["x": .double(1e300)], style: "cover"),
        .dismiss, .dismissAll, .back, .selectTab("news"), .open("/news/1?x=ü"),
        .apply(
            [
                RawOperation(name: "push", arguments: ["route": .string("red"), "params": .map(["n": .int(3), "m": nested])]),
                RawOperation(name: "setstack", arguments: ["screens": .list([.record([.string("a"), .map([:])])])]),
                RawOperation(name: "pop"),
            ], expectedRevision: UInt64.max),
        .apply([], expectedRevision: 0),
        .undo, .redo, .reconcile,
    ] }

    static func records() -> [JournalRecord] {
        operations.enumerated().map { index, op in
            JournalRecord(
                entry: HistoryEntry(revision: UInt64(index) * 1_000_003 + 2, cause: op.cause, time: index.isMultiple(of: 2) ? testTime : -testTime), operation: op,
                changeRecord: index.isMultiple(of: 3) ? nil : ChangeRecord(
                    method: "Push", arguments: [1, 0, 0xFF], sender: ":1.\(index)", uid: index.isMultiple(of: 2) ? 1000 : nil,
                    pid: UInt32.max, command: "navctl", details: index.isMultiple(of: 2) ? [:] : ["event": "next", "source": "#1"]))
        }
    }

    @Test func everyOperationRoundTrips() throws {
        for record in Self.records() {
            let bytes = record.encoded()
            #expect(Array(bytes.prefix(5)) == Array("NVDJ".utf8) + [4])
            let decoded = try JournalRecord.decode(bytes)
            #expect(decoded == record, "\(record.entry.cause)")
            #expect(decoded.encoded() == bytes, "\(record.entry.cause) encodes the same bytes again")
        }
    }

    @Test func nanAndKeyOrderEncodeStably() throws {
        let many = Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", InputValue.int(Int64($0))) })
        let record = JournalRecord(entry: HistoryEntry(revision: 9, cause: "push", time: 0), operation: .push(route: "r", params: many.merging(["nan": .double(.nan)]) { a, _ in a }))
        var rebuilt: InputParams = [:]
        for (key, value) in many.reversed() { rebuilt[key] = value }
        rebuilt["nan"] = .double(.nan)
        let same = JournalRecord(entry: HistoryEntry(revision: 9, cause: "push", time: 0), operation: .push(route: "r", params: rebuilt))
        #expect(record.encoded() == same.encoded())
        let decoded = try JournalRecord.decode(record.encoded())
        guard case .push(_, let params) = decoded.operation, case .double(let value) = params["nan"] else {
            Issue.record("not a push with a double"); return
        }
        #expect(value.isNaN && params.count == 51)
    }

    /// 0.1.0 wrote version 3, version 4 without the change record: it is read, with no record.
    @Test func version3RecordsAreReadWithoutARecord() throws {
        for var record in Self.records() {
            record.changeRecord = nil
            var bytes = record.encoded()
            #expect(bytes.last == 0)
            bytes.removeLast()
            bytes[4] = 3
            #expect(try JournalRecord.decode(bytes) == record)
        }
    }

    @Test func version1JSONRecordsAreRefusedByTheirVersion() {
        let version1 = #"{"cause":"push","format":"navd-journal","operation":{"op":"push","params":{},"route":"orange"},"revision":2,"time":0,"version":1}"#
        #expect(throws: SnapshotError.unsupportedVersion(found: 1, supported: JournalRecord.formatVersion)) {
            try JournalRecord.decode(Array(version1.utf8))
        }
        #expect(throws: SnapshotError.corrupt("not a navd journal record (no 'NVDJ' magic)")) {
            try JournalRecord.decode(Array(#"{"format":"other","version":1}"#.utf8))
        }
    }

    @Test func damagedRecordsAreClearErrorsNeverCrashes() {
        for record in Self.records() {
            let good = record.encoded()
            for length in 0..<good.count {
                #expect(throws: SnapshotError.self) { try JournalRecord.decode(Array(good.prefix(length))) }
            }
            #expect(throws: SnapshotError.self) { try JournalRecord.decode(good + [0]) }
            for position in 0..<good.count {
                var damaged = good
                damaged[position] ^= 0xFF
                _ = try? JournalRecord.decode(damaged)  // must not crash; may decode to another record
            }
        }
        var future = Self.records()[1].encoded()
        future[4] = 5
        #expect(throws: SnapshotError.unsupportedVersion(found: 5, supported: 4)) { try JournalRecord.decode(future) }
        #expect(throws: SnapshotError.corrupt("not a navd journal record (no 'NVDJ' magic)")) { try JournalRecord.decode(Array("NVDS".utf8) + [2]) }
        let header = Array("NVDJ".utf8) + [3, 5, 1, UInt8(ascii: "x"), 0]
        #expect(throws: SnapshotError.corrupt("unknown operation tag 200 at byte 10")) { try JournalRecord.decode(header + [200]) }
        #expect(throws: SnapshotError.corrupt("a string is not valid UTF-8 at byte 11")) { try JournalRecord.decode(header + [10, 2, 0xC3, 0x28]) }
        #expect(throws: SnapshotError.corrupt("a count of 1000 exceeds the bytes left at byte 14")) {
            try JournalRecord.decode(header + [0, 1, UInt8(ascii: "r"), 0xE8, 0x07])
        }
        #expect(throws: SnapshotError.corrupt("an integer does not fit 64 bits at byte 15")) {
            try JournalRecord.decode(Array("NVDJ".utf8) + [3] + [UInt8](repeating: 0xFF, count: 11))
        }
        let deep = header + [0, 1, UInt8(ascii: "r"), 1, 1, UInt8(ascii: "k")] + [UInt8](repeating: 8, count: 300) + [1, 0]
        #expect(throws: SnapshotError.corrupt("values nest deeper than 256 levels at byte 271")) { try JournalRecord.decode(deep) }
        let twice = header + [0, 1, UInt8(ascii: "r"), 2, 1, UInt8(ascii: "k"), 1, 0, 1, UInt8(ascii: "k"), 1, 1]
        #expect(throws: SnapshotError.corrupt("key 'k' appears twice at byte 21")) { try JournalRecord.decode(twice) }
    }
}
