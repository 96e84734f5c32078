import Testing
@testable import Navigation
import RouteFiles

/// Format version 7: the change records' texts stored once each in a table; version 6, which wrote each record
/// out in full, is still read.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotVersion7Tests {
    static let record = ChangeRecord(
        method: "Push", arguments: [1, 2, 3, 4], sender: ":1.42", uid: 1000, pid: 4242, command: "navctl",
        details: ["event": "next", "outcome": "applied"])

    @Test func aVersion6SnapshotIsReadWithItsRecords() throws {
        // Version 6: one history line with its state (the current tree) and its record in full.
        var writer = KeptRevisionTests.handWrittenSnapshot(version: 6)
        writer.params([:])  // facts
        writer.count(1); writer.varint(2); writer.string("push"); writer.signed(testTime)
        writer.byte(1); writer.count(1)  // the state after it: the current tree, the current facts
        writer.bool(true); writer.changeRecord(Self.record)
        writer.bool(false)  // no base
        let graph = KeptRevisionTests.untabbed()
        var coordinator = Coordinator(graph: graph)
        _ = try coordinator.perform(.push(route: "orange", params: [:]), at: testTime)
        let restored = Coordinator(graph: graph, restoring: try NavigationState.decodeSnapshot(writer.bytes))
        #expect(restored.state.tree == coordinator.state.tree && restored.state.undo == coordinator.state.undo)
        #expect(restored.changes(from: 0, limit: 10).map(\.record) == [Self.record])
        #expect(try restored.state(at: 2) == KeptRevisionTests.observed(coordinator))
        // Written again, it is version 7, and reads back the same.
        let again = restored.state.encodedSnapshot()
        #expect(Array(again.prefix(5)) == Array("NVDS".utf8) + [7])
        #expect(try NavigationState.decodeSnapshot(again) == restored.state)
    }

    @Test func aRecordRepeatedCostsAFewBytes() throws {
        var recorded = Coordinator(graph: KeptRevisionTests.untabbed())
        var bare = recorded
        for round in 0..<400 {
            let op: Navigation.Operation = round % 2 == 0 ? .push(route: "orange", params: [:]) : .pop
            _ = try recorded.perform(op, at: testTime)
            _ = try bare.perform(op, at: testTime)
            recorded.record(Self.record, forRevision: recorded.revision)
        }
        let perChange = Double(recorded.state.encodedSnapshot().count - bare.state.encodedSnapshot().count) / 400
        var inline = ByteWriter()
        inline.changeRecord(Self.record)
        print("a repeated record: \(perChange) B a change in the snapshot (written out in full: \(inline.bytes.count) B)")
        // Six references and a count, not the texts again.
        #expect(perChange <= 10)
        let decoded = try NavigationState.decodeSnapshot(recorded.state.encodedSnapshot())
        #expect(decoded == recorded.state)
        #expect(decoded.history.all.allSatisfy { $0.record == Self.record })
    }

    @Test func aDamagedTextReferenceIsAClearError() throws {
        var coordinator = Coordinator(graph: KeptRevisionTests.untabbed())
        _ = try coordinator.perform(.push(route: "orange", params: [:]), at: testTime)
        coordinator.record(Self.record, forRevision: coordinator.revision)
        var bytes = coordinator.state.encodedSnapshot()
        // The texts table is the last table; the document ends with the record's references, then no base.
        // Make the last detail's value reference point past the table.
        bytes[bytes.count - 2] = 0x7f
        #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(bytes) }
    }
}
