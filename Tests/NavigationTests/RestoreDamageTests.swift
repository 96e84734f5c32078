import Testing
@testable import Navigation
import RouteFiles

/// A journal row that cannot be read or replayed even under its own graph stops the replay at the last good
/// row; revisions and ids still move past everything the store held, so nothing answered is answered again.
@Suite(.timeLimit(.minutes(1)))
struct RestoreDamageTests {
    /// Four answered pushes after a snapshot at revision 1: editor #7 (2), detail #8 (3), item #9 (4), settings #10 (5).
    static func stored() throws -> (input: RestoreInput, live: Coordinator) {
        RestoreTests.crash(try ReloadTests.graph(), [push("editor"), push("detail"), push("item", ["id": .int(1)]), push("settings")])
    }

    /// `input` with row `index` holding `payload`.
    static func damaged(_ input: RestoreInput, row index: Int, _ payload: [UInt8]) -> RestoreInput {
        var result = input
        result.journal[index].payload = payload
        return result
    }

    @Test func garbageBytesStopTheReplayAndTheRevisionStillJumpsPastThem() throws {
        let (stored, live) = try Self.stored()
        #expect(live.revision == 5 && live.state.nextIdNumber == 11)
        let input = Self.damaged(stored, row: 1, [0x4E, 0x56, 0x00, 0xFF])
        let restored = try Coordinator.restore(input, savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        #expect(restored.stopped == ReplayStop(revision: 3, reason: "corrupt navd document: not a navd journal record (no 'NVDJ' magic)"))
        #expect(restored.replayed == 1 && restored.replayedRevision == 2)
        let coordinator = restored.coordinator
        #expect(coordinator.path == [entry("#2", "start", .root), entry("#7", "editor")])
        #expect(coordinator.revision == 5 && coordinator.state.nextIdNumber == 11)
        // The jump is no change: no history entry, the undo step of revision 2 is still there.
        #expect(coordinator.history(limit: 10).map(\.revision) == [2] && coordinator.canUndo)
        #expect(restored.reconciliation.change == nil)
        #expect(restored.warnings == ["revisions 3…5 were answered but not replayed; the state goes on from revision 5, ids from #11"])
        try RestoreTests.expectNextChangeAccepted(restored, push("item", ["id": .int(2)]))
        var next = coordinator
        #expect(next.must(push("detail"))?.newScreenId == "#11" && next.revision == 6)
    }

    @Test func aRecordStoredUnderAnotherRevisionStopsTheReplay() throws {
        let (stored, live) = try Self.stored()
        let input = Self.damaged(stored, row: 1, stored.journal[2].payload)
        let restored = try Coordinator.restore(input, savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        #expect(restored.stopped == ReplayStop(revision: 3, reason: "the row stored as revision 3 holds the record of revision 4"))
        #expect(restored.coordinator.revision == 5 && restored.coordinator.routes == ["start", "editor"])

        // A gap after the snapshot: the first row does not follow it.
        var gap = stored
        gap.journal.removeFirst()
        let fromGap = try Coordinator.restore(gap, savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        #expect(fromGap.stopped == ReplayStop(revision: 3, reason: "journal record for revision 3 does not follow the state's revision 1"))
        #expect(fromGap.replayed == 0 && fromGap.coordinator.revision == 5 && fromGap.coordinator.routes == ["start"])
    }

    @Test func aRecordThatDoesNotReplayEvenUnderItsOwnGraphStopsTheReplay() throws {
        let (stored, live) = try Self.stored()
        let dismiss = JournalRecord(entry: HistoryEntry(revision: 3, cause: "dismiss", time: testTime), operation: .dismiss)
        let restored = try Coordinator.restore(Self.damaged(stored, row: 1, dismiss.encoded()), savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        #expect(restored.stopped == ReplayStop(revision: 3, reason: "NoModal: no sheet or cover is on the path of tab 'home'; nothing to dismiss"))
        #expect(restored.coordinator.revision == 5 && restored.replayedRevision == 2)
    }

    @Test func aStopThenAnEditedGraphRepairsAfterTheJump() throws {
        let (stored, live) = try Self.stored()
        let current = try ReloadTests.graph(("  editor: { presentations: [push, sheet] }\n", ""))
        let restored = try Coordinator.restore(Self.damaged(stored, row: 2, []), savedGraph: live.graph, currentGraph: current, at: testTime)
        #expect(restored.stopped?.revision == 4 && restored.replayedRevision == 3)
        let change = try #require(restored.reconciliation.change)
        #expect(change.revision == 6 && change.cause == "reconcile" && restored.coordinator.routes == ["start"])
        #expect(restored.warnings == [
            "revisions 4…5 were answered but not replayed; the state goes on from revision 5, ids from #11",
            "tab 'home': removed screen 'editor' (#7), whose route is no longer in the route graph, and the 1 screen(s) above it",
        ])
        #expect(restored.coordinator.history(limit: 3).map(\.revision) == [6, 3, 2])
    }

    @Test func aDamagedSnapshotOrCountersOutOfRangeAreRefused() throws {
        let (stored, live) = try Self.stored()
        #expect(throws: SnapshotError.self) {
            try Coordinator.restore(RestoreInput(snapshot: [1, 2, 3], journal: stored.journal), savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        }
        var huge = stored
        huge.highestRevision = UInt64.max - 1
        #expect(throws: SnapshotError.corrupt("revision \(UInt64.max - 1) is out of range")) {
            try Coordinator.restore(huge, savedGraph: live.graph, currentGraph: live.graph, at: testTime)
        }
    }

    @Test func skipForwardNeverGoesBackAndIsNoChange() throws {
        var coordinator = try ReloadTests.base()
        coordinator.must(push("editor"))
        let before = coordinator.state
        let movedBack = coordinator.skipForward(pastRevision: 1, nextId: 3)
        #expect(!movedBack && coordinator.state == before)
        let moved = coordinator.skipForward(pastRevision: 40, nextId: 90)
        #expect(moved)
        #expect(coordinator.revision == 40 && coordinator.state.nextIdNumber == 90)
        #expect(coordinator.state.history == before.history && coordinator.state.undo == before.undo && coordinator.state.tree == before.tree)
        #expect(coordinator.must(push("detail"))?.newScreenId == "#90" && coordinator.revision == 41)
    }
}
