import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct ReconcileTests {
    /// The demo graph without `orange`, `modal` and the `profile` tab, with a new `shop` tab, and `news-list` gone
    /// (`Tests/Fixtures/routes/changed.yaml`).
    func changedGraph() throws -> RouteGraph { try fixtureGraph("changed") }

    @Test func reconcileRepairsTheTreeAsOneRevision() throws {
        var old = demo()
        old.must(push("yellow"))  // #7
        old.must(push("orange"))  // #8  (route gone: it and #9.. go)
        old.must(push("purple"))  // #9
        old.must(present("modal", "sheet"))  // #10
        old.must(.selectTab("news"))
        old.must(push("news-item", ["id": .int(5)]))  // #11 (kept, but its root news-list is gone)
        old.must(present("login", "cover"))  // #12
        old.must(.selectTab("profile"))
        var coordinator = Coordinator(graph: try changedGraph(), restoring: old.state)
        let result = coordinator.reconcile(at: testTime)
        let change = try #require(result.change)
        #expect(change.cause == "reconcile" && change.revision == old.revision + 1)
        #expect(change.record?.operation == .reconcile)
        #expect(coordinator.tabs == ["shop", "rainbow", "news"])
        #expect(coordinator.selectedTab == "shop")
        #expect(coordinator.path == [entry("#14", "red", .root)])
        #expect(coordinator.nodes
            == tabNodes("#13", "shop", [entry("#14", "red", .root)])
            + tabNodes("#1", "rainbow", [entry("#2", "red", .root), entry("#7", "yellow")])
            + tabNodes("#3", "news", [entry("#15", "yellow", .root)]))
        #expect(!coordinator.canUndo && !coordinator.canRedo)
        #expect(result.warnings == [
            "tab 'shop' is new in the route graph; it starts at its root 'red'",
            "tab 'rainbow': removed screen 'orange' (#8), whose route is no longer in the route graph, and the 2 screen(s) above it",
            "tab 'news': removed screen 'news-list' (#4), whose route is no longer in the route graph, and the 2 screen(s) above it; its root is now 'yellow'",
            "tab 'profile' is no longer in the route graph; dropped it and its screens",
            "the selected tab 'profile' is gone; selected 'shop'",
        ])
        let again = coordinator.reconcile(at: testTime)
        #expect(again.change == nil && again.warnings.isEmpty)
    }

    @Test func aLayerWhoseRootIsGoneIsDismissed() throws {
        var old = demo()
        old.must(present("login", "cover"))  // #7
        old.must(present("modal", "sheet"))  // #8 gone
        old.must(push("red"))  // #9
        var fresh = Coordinator(graph: try changedGraph(), restoring: old.state)
        let result = fresh.reconcile(at: testTime)
        #expect(result.change != nil)
        #expect(fresh.selectedTab == "rainbow")
        #expect(fresh.path == [entry("#2", "red", .root), entry("#7", "login", .cover)])
    }

    @Test func unchangedGraphIsANoOp() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(.undo)
        let result = coordinator.reconcile(at: testTime)
        #expect(result.change == nil && coordinator.canRedo)
        let viaPerform = coordinator.must(.reconcile)
        #expect(viaPerform?.isNoOp == true)
    }

    @Test func tabbedMismatchStartsAFreshTreeAndIdsKeepCounting() throws {
        var old = demo()
        old.must(push("orange"))  // #7
        var coordinator = Coordinator(graph: try smallGraph(), restoring: old.state)
        let warnings = coordinator.reconcile(at: testTime).warnings
        #expect(warnings == ["the route graph is a single stack now but the tree had tabs; starting from a fresh tree"])
        #expect(coordinator.path == [entry("#8", "home", .root)])
        #expect(coordinator.revision == 3 && coordinator.history(limit: 1).first?.cause == "reconcile")
        var back = Coordinator(graph: .demo, restoring: coordinator.state)
        _ = back.reconcile(at: testTime)
        #expect(back.nodes.first == Node(id: "#9", parentID: "", kind: .tab, name: "rainbow"))
    }

    @Test func replayOfAReconcileRecordRepeatsIt() throws {
        var old = demo()
        old.must(.selectTab("profile"))
        let saved = old.state
        var coordinator = Coordinator(graph: try changedGraph(), restoring: saved)
        let record = try #require(coordinator.reconcile(at: testTime).change?.record)
        var replayed = Coordinator(graph: try changedGraph(), restoring: saved)
        _ = try replayed.replay(record)
        #expect(replayed.state == coordinator.state)
    }
}
