import Testing
@testable import Navigation
import RouteFiles

/// Revert (docs/devtools.md): the tree and flows of a kept revision as one undoable change, repaired to the
/// current graph and facts as Undo repairs, facts left as they are; RevisionNotKept before StaleRevision.
@Suite(.timeLimit(.minutes(1)))
struct RevertTests {
    @Test func aRevertIsOneUndoableChangeThatLeavesTheFacts() throws {
        var coordinator = demo()
        coordinator.must(.push(route: "orange", params: [:]))  // 2
        let two = coordinator.state.tree
        coordinator.must(.push(route: "yellow", params: [:]))  // 3
        coordinator.must(.setFacts(["signed-in": .bool(true)]))  // 4
        coordinator.must(.undo)  // 5: yellow goes, the redo list holds it
        let before = coordinator.state.tree
        let made = coordinator.must(.revert(revision: 3, expectedRevision: 5))
        let change = try #require(made)
        #expect(change.revision == 6 && change.cause == "revert" && !change.isNoOp)
        #expect(coordinator.path.map(\.route) == ["red", "orange", "yellow"])
        #expect(coordinator.facts["signed-in"] == .bool(true) && !coordinator.canRedo)
        #expect(coordinator.history(limit: 1).first?.cause == "revert")
        coordinator.must(.undo)
        #expect(coordinator.state.tree == before)
        coordinator.must(.revert(revision: 2, expectedRevision: 0))
        #expect(coordinator.state.tree == two)
    }

    @Test func theChecksComeInTheContractsOrder() {
        var coordinator = demo()
        coordinator.must(.push(route: "orange", params: [:]))
        #expect(coordinator.refuse(.revert(revision: 7, expectedRevision: 1)) == .revisionNotKept(
            "revision 7 is not kept: this navigator keeps revisions 1 to 2"))
        #expect(coordinator.refuse(.revert(revision: 1, expectedRevision: 1))?.kind == .staleRevision)
        #expect(coordinator.refuse(.apply([RawOperation(name: "revert", arguments: ["revision": .uint(9)])], expectedRevision: 0)) ==
            .revisionNotKept("op 0: revision 9 is not kept: this navigator keeps revisions 1 to 2"))
        #expect(coordinator.refuse(.apply([RawOperation(name: "revert", arguments: ["revision": .string("1")])], expectedRevision: 0))?.kind == .invalidOperation)
        // Revision 0 and the current one leave everything as it is: a no-op.
        #expect(coordinator.must(.revert(revision: 0, expectedRevision: 2))?.isNoOp == true)
        #expect(coordinator.must(.revert(revision: 2, expectedRevision: 0))?.isNoOp == true)
        #expect(coordinator.revision == 2)
    }

    @Test func theStateBroughtBackIsRepairedToTheFactsAndNeverRedirected() throws {
        var coordinator = demo()
        coordinator.must(.setFacts(["signed-in": .bool(true)]))  // 2
        coordinator.must(.selectTab("profile"))  // 3
        coordinator.must(.push(route: "account", params: [:]))  // 4: profile > account
        coordinator.must(.setFacts(["signed-in": .bool(false)]))  // 5: account goes
        coordinator.must(.selectTab("rainbow"))  // 6
        // Revision 4's account needs signed-in, now false: it goes; no guard flow starts.
        let made = coordinator.must(.revert(revision: 4, expectedRevision: 0))
        let change = try #require(made)
        #expect(change.outcome == .applied && coordinator.selectedTab == "profile")
        #expect(coordinator.path.map(\.route) == ["profile"] && coordinator.flows.isEmpty)
        // Back to revision 4 again: the repair leaves it as it is now, a no-op.
        #expect(coordinator.must(.revert(revision: 4, expectedRevision: 0))?.isNoOp == true)
    }

    @Test func aRouteTheGraphNoLongerHasGoesWithWhatIsAboveIt() throws {
        var coordinator = demo()
        coordinator.must(.push(route: "orange", params: [:]))
        coordinator.must(.push(route: "yellow", params: [:]))  // 3
        coordinator.must(.popToRoot)  // 4
        coordinator.must(.push(route: "green", params: [:]))  // 5
        var graph = RouteGraph.demo
        graph.routes["orange"] = nil
        graph.routeOrder.removeAll { $0 == "orange" }
        _ = coordinator.reload(graph, at: testTime)
        let made = coordinator.must(.revert(revision: 3, expectedRevision: 0))
        let change = try #require(made)
        #expect(!change.isNoOp && coordinator.path.map(\.route) == ["red"], "orange goes, and yellow above it")
    }
}
