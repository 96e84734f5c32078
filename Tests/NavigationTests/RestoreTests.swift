import Testing
@testable import Navigation
import RouteFiles

/// Start-up after a crash and an edit of the route file: every answered change is replayed under the graph it
/// was made under, then repaired to the edited file as one "reconcile" revision; revisions only go forward.
@Suite(.timeLimit(.minutes(1)))
struct RestoreTests {
    /// What the store holds after `ops` (each must succeed) on a fresh coordinator of `graph`, with a snapshot
    /// taken after the first `snapshotAfter` of them; and the coordinator as it was at the crash.
    static func crash(_ graph: RouteGraph, _ ops: [Navigation.Operation], snapshotAfter: Int = 0) -> (input: RestoreInput, live: Coordinator) {
        var live = Coordinator(graph: graph)
        var snapshot = live.state.encodedSnapshot()
        var rows: [JournalRow] = []
        for (index, op) in ops.enumerated() {
            if index == snapshotAfter { snapshot = live.state.encodedSnapshot(); rows = [] }
            if let record = live.must(op)?.record { rows.append(JournalRow(revision: record.entry.revision, payload: record.encoded())) }
        }
        if ops.count == snapshotAfter { snapshot = live.state.encodedSnapshot(); rows = [] }
        return (RestoreInput(snapshot: snapshot, journal: rows, highestRevision: live.revision, highestNextId: live.state.nextIdNumber), live)
    }

    /// Restores `input` under `saved` then `current`, and checks the result against what `live` becomes when
    /// reloaded with `current`: the whole state, the graph, the warnings and the reconcile revision.
    static func restoreAsLive(
        _ input: RestoreInput, live: Coordinator, current: RouteGraph, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Restored {
        let restored = try Coordinator.restore(input, savedGraph: live.graph, currentGraph: current, at: testTime)
        var expected = live
        let reload = expected.reload(current, at: testTime)
        #expect(restored.stopped == nil && restored.replayed == input.journal.count, sourceLocation: sourceLocation)
        #expect(restored.replayedRevision == live.revision, sourceLocation: sourceLocation)
        #expect(restored.coordinator.state == expected.state && restored.coordinator.graph == current, sourceLocation: sourceLocation)
        #expect(restored.warnings == reload.warnings && restored.reconciliation.warnings == reload.warnings, sourceLocation: sourceLocation)
        #expect(restored.reconciliation.change?.revision == reload.change?.revision, sourceLocation: sourceLocation)
        return restored
    }

    /// Checks that the next change is accepted with the next revision and a new id, and that the state after
    /// it survives a clean restart under the current graph unchanged.
    static func expectNextChangeAccepted(_ restored: Restored, _ op: Navigation.Operation, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var coordinator = restored.coordinator
        let change = try coordinator.perform(op, at: testTime + 1)
        #expect(!change.isNoOp && change.revision == restored.coordinator.revision + 1, sourceLocation: sourceLocation)
        if let id = change.newScreenId { #expect(id == "#\(restored.coordinator.state.nextIdNumber)", sourceLocation: sourceLocation) }
        let input = RestoreInput(snapshot: coordinator.state.encodedSnapshot(), journal: [], highestRevision: coordinator.revision, highestNextId: coordinator.state.nextIdNumber)
        let again = try Coordinator.restore(input, savedGraph: coordinator.graph, currentGraph: coordinator.graph, at: testTime)
        #expect(again.coordinator.state == coordinator.state && again.reconciliation.change == nil && again.warnings.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func aRouteRemovedWhileStoppedIsRepairedAfterEveryChangeIsReplayed() throws {
        let saved = try ReloadTests.graph()
        let (input, live) = Self.crash(saved, [push("editor"), push("detail", ["zoom": .double(1.5)]), push("item", ["id": .int(3)])], snapshotAfter: 1)
        #expect(input.journal.map(\.revision) == [3, 4])
        let current = try ReloadTests.graph(("  detail: { params: { zoom: double } }\n", ""))
        let restored = try Self.restoreAsLive(input, live: live, current: current)
        #expect(restored.replayedRevision == 4 && restored.replayed == 2)
        let change = try #require(restored.reconciliation.change)
        #expect(change.cause == "reconcile" && change.revision == 5 && restored.coordinator.revision == 5)
        #expect(restored.coordinator.path == [entry("#2", "start", .root), entry("#7", "editor")])
        #expect(restored.warnings == ["tab 'home': removed screen 'detail' (#8), whose route is no longer in the route graph, and the 1 screen(s) above it"])
        #expect(restored.coordinator.history(limit: 4).map(\.cause) == ["reconcile", "push", "push", "push"])
        #expect(!restored.coordinator.canUndo)
        try Self.expectNextChangeAccepted(restored, push("settings"))

        // Replaying under the edited graph instead (what start-up did before) stops at revision 3 and loses 3 and 4.
        var old = Coordinator(graph: current, restoring: try NavigationState.decodeSnapshot(try #require(input.snapshot)))
        #expect(throws: NavigationError.self) { try old.replay(JournalRecord.decode(input.journal[0].payload)) }
    }

    @Test func aParamRetypedWhileStoppedIsRepairedAfterTheReplay() throws {
        let saved = try ReloadTests.graph()
        let (input, live) = Self.crash(saved, [push("item", ["id": .int(3)]), push("detail"), .undo, .redo])
        let restored = try Self.restoreAsLive(input, live: live, current: try ReloadTests.graph(("id: { type: int", "id: { type: string")))
        #expect(restored.replayedRevision == 5 && restored.reconciliation.change?.revision == 6)
        #expect(restored.coordinator.path == [entry("#2", "start", .root)])
        #expect(restored.warnings == ["tab 'home': removed screen 'item' (#7), whose params no longer fit route 'item' (param 'id' of route 'item' must be string (s), not an int), and the 1 screen(s) above it"])
        try Self.expectNextChangeAccepted(restored, push("item", ["id": .string("x")]))
    }

    @Test func aPresentationRemovedWhileStoppedIsRepairedAfterTheReplay() throws {
        let saved = try ReloadTests.graph()
        let (input, live) = Self.crash(saved, [.selectTab("shop"), present("help", "sheet"), push("editor")], snapshotAfter: 1)
        let current = try ReloadTests.graph(("help: { presentations: [sheet, cover] }", "help: { presentations: [cover] }"))
        let restored = try Self.restoreAsLive(input, live: live, current: current)
        #expect(restored.coordinator.path == [entry("#4", "catalog", .root)] && restored.coordinator.selectedTab == "shop")
        #expect(restored.warnings == ["tab 'shop': removed screen 'help' (#7), which route 'help' no longer allows as sheet, and the 1 screen(s) above it"])
        try Self.expectNextChangeAccepted(restored, present("help", "cover"))
    }

    @Test func tabbedToUntabbedAndBackStartFreshTreesAndIdsKeepCounting() throws {
        let tabbed = try ReloadTests.graph()
        let untabbed = try RouteGraph.load(yaml: "root: start\nroutes:\n  start: {}\n  editor: {}\n", file: "single.yaml")
        let (input, live) = Self.crash(tabbed, [.selectTab("more"), push("editor")])
        let restored = try Self.restoreAsLive(input, live: live, current: untabbed)
        #expect(restored.coordinator.path == [entry("#8", "start", .root)] && restored.coordinator.tabs.isEmpty)
        #expect(restored.warnings.first == "the route graph is a single stack now but the tree had tabs; starting from a fresh tree")
        try Self.expectNextChangeAccepted(restored, push("editor"))

        let (single, singleLive) = Self.crash(untabbed, [push("editor"), push("editor"), .pop])
        let back = try Self.restoreAsLive(single, live: singleLive, current: tabbed)
        #expect(back.coordinator.tabs == ["home", "shop", "more"] && back.coordinator.revision == 5)
        #expect(back.coordinator.nodes.first == Node(id: "#4", parentID: "", kind: .tab, name: "home"))
        #expect(back.warnings.first == "the route graph has tabs now but the tree was a single stack; starting from a fresh tree")
        try Self.expectNextChangeAccepted(back, .selectTab("shop"))
    }

    @Test func factsAndFlowsChangedWhileStoppedAreRepairedAfterTheReplay() throws {
        let saved = try ReloadTests.graph()
        // secret is guarded: the push starts the unlock flow (pin #8, flow #9) and keeps the request.
        let (input, live) = Self.crash(saved, [.setFacts(["count": .int(5)]), push("editor"), push("secret")], snapshotAfter: 1)
        #expect(live.flows.map(\.id) == ["#9"] && live.routes == ["start", "editor", "pin"])
        let current = try ReloadTests.graph(
            ("count: { type: int, default: 0 }", "count: { type: string, default: none }"),
            ("flows:\n  unlock: { start: pin, outputs: { ok: {} } }\nguards:\n  unlocked: { start: unlock, resume-on: ok }\n", ""))
        let restored = try Self.restoreAsLive(input, live: live, current: current)
        let change = try #require(restored.reconciliation.change)
        #expect(change.endedFlows == [FlowEnd(id: "#9", flow: "unlock", output: "")])
        #expect(restored.coordinator.flows.isEmpty && restored.coordinator.routes == ["start", "editor", "pin"])
        #expect(restored.coordinator.facts == ["unlocked": .bool(false), "count": .string("none")])
        #expect(restored.warnings == [
            "flow 'unlock' (#9) is no longer in the route graph; its screens stay, it no longer encloses them",
            "fact 'count' is string now (it was int); it is back at its default none",
        ])
        try Self.expectNextChangeAccepted(restored, .setFacts(["count": .string("two")]))
    }

    @Test func anUnchangedGraphRestoresTheLiveStateWithoutARevision() throws {
        let graph = try ReloadTests.graph()
        let (input, live) = Self.crash(graph, [push("editor"), push("detail"), .selectTab("shop"), .undo], snapshotAfter: 2)
        let restored = try Self.restoreAsLive(input, live: live, current: graph)
        #expect(restored.coordinator.state == live.state && restored.reconciliation.change == nil && restored.warnings.isEmpty)
        #expect(restored.coordinator.canUndo && restored.coordinator.canRedo)
        let fresh = try Coordinator.restore(RestoreInput(snapshot: nil, journal: []), savedGraph: graph, currentGraph: graph, at: testTime)
        #expect(fresh.coordinator.state == Coordinator(graph: graph).state && fresh.replayed == 0)
    }
}
