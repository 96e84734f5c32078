import Testing
@testable import Navigation

/// The record kept with each change (docs/devtools.md "Who changed what"): attached to the change just made,
/// listed by `changes(from:limit:)` oldest first, and kept through a snapshot and through journal replay.
@Suite(.timeLimit(.minutes(1)))
struct ChangeRecordTests {
    static func record(_ index: Int) -> ChangeRecord {
        ChangeRecord(
            method: index.isMultiple(of: 2) ? "Push" : "", arguments: [UInt8(index), 0, 0xFF], sender: ":1.\(index)",
            uid: 1000, pid: UInt32(4000 + index), command: index.isMultiple(of: 2) ? "navctl" : nil,
            details: index.isMultiple(of: 2) ? [:] : ["reason": "reload"])
    }

    /// Runs the script of `KeptRevisionTests`, recording each change; the coordinator and the journal records.
    static func run() -> (Coordinator, [JournalRecord]) {
        var coordinator = Coordinator(graph: KeptRevisionTests.graph(maxHistory: 6))
        var journal: [JournalRecord] = []
        for (index, op) in KeptRevisionTests.script.enumerated() {
            guard let change = try? coordinator.perform(op, at: testTime + Int64(index)), !change.isNoOp, var record = change.record
            else { continue }
            coordinator.record(Self.record(index), forRevision: change.revision)
            record.changeRecord = Self.record(index)
            journal.append(record)
        }
        return (coordinator, journal)
    }

    @Test func recordsAreListedOldestFirstWithinTheKeptChanges() throws {
        let (coordinator, _) = Self.run()
        let all = coordinator.changes(from: 0, limit: 100)
        #expect(all.map(\.entry) == coordinator.history(limit: 100).reversed())
        #expect(all.count == 6 && all.allSatisfy { $0.record != nil && $0.tab != nil && $0.top != nil })
        #expect(all.last?.top == coordinator.top.route && all.last?.tab == coordinator.selectedTab)
        let newest = try #require(all.last)
        #expect(coordinator.changes(from: newest.entry.revision, limit: 10) == [newest])
        #expect(coordinator.changes(from: 0, limit: 2) == Array(all.prefix(2)))
        #expect(coordinator.changes(from: newest.entry.revision + 1, limit: 10).isEmpty)
        #expect(coordinator.changes(from: 0, limit: 0).isEmpty)
        // A record for another revision than the newest change's is not attached.
        var other = coordinator
        other.record(ChangeRecord(method: "Pop"), forRevision: 1)
        #expect(other.changes(from: 0, limit: 100) == all)
    }

    @Test func recordsSurviveASnapshotAndJournalReplay() throws {
        let (coordinator, journal) = Self.run()
        let decoded = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
        #expect(decoded == coordinator.state)
        let restored = Coordinator(graph: coordinator.graph, restoring: decoded)
        #expect(restored.changes(from: 0, limit: 100) == coordinator.changes(from: 0, limit: 100))

        var replayed = Coordinator(graph: coordinator.graph)
        for record in journal { _ = try replayed.replay(try JournalRecord.decode(record.encoded())) }
        #expect(replayed.changes(from: 0, limit: 100) == coordinator.changes(from: 0, limit: 100))
    }
}
