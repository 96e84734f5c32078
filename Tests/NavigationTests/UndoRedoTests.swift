import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct UndoRedoTests {
    @Test func undoRestoresTheWholeTreeAsANewRevision() throws {
        var coordinator = demo()
        coordinator.must(push("orange"))  // r2 #7
        coordinator.must(present("modal"))  // r3 #8
        coordinator.must(.selectTab("news"))  // r4
        let result = coordinator.must(.undo)
        let change = try #require(result)
        #expect(change.revision == 5 && change.cause == "undo")
        #expect(change.changedProperties == [.revision, .depth, .top, .topID, .selectedTab, .canRedo, .backTarget])
        #expect(coordinator.selectedTab == "rainbow")
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "modal", .sheet)])
        coordinator.must(.undo)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
        coordinator.must(.undo)
        #expect(coordinator.path == [entry("#2", "red", .root)])
        #expect(!coordinator.canUndo && coordinator.canRedo)
        #expect(coordinator.refuse(.undo) == .nothingToUndo("there is no change to undo"))
        coordinator.must(.redo)
        coordinator.must(.redo)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "modal", .sheet)])
        coordinator.must(.redo)
        #expect(coordinator.selectedTab == "news" && coordinator.revision == 10)
        #expect(coordinator.refuse(.redo)?.name == "NothingToRedo")
    }

    @Test func anotherChangeClearsRedoButANoOpKeepsIt() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(.undo)
        coordinator.must(.popToRoot)  // a no-op
        #expect(coordinator.canRedo)
        coordinator.must(push("yellow"))
        #expect(!coordinator.canRedo)
        #expect(coordinator.refuse(.redo) == .nothingToRedo("there is nothing to redo; only an Undo can be redone, and any other change clears the redo list"))
    }

    @Test func failuresKeepUndoAndRedo() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(.undo)
        _ = coordinator.refuse(push("nope"))
        #expect(coordinator.canRedo && coordinator.canUndo == false)
    }

    @Test func undoKeepsAtLeastMaxUndoSteps() throws {
        var coordinator = Coordinator(graph: try smallGraph())  // max-undo 3
        for _ in 0..<20 {
            coordinator.must(push("list"))
            coordinator.must(.pop)
        }
        var undone = 0
        while coordinator.canUndo {
            coordinator.must(.undo)
            undone += 1
        }
        #expect(undone >= 3 && undone <= 6)
    }

    @Test func historyIsNewestFirstAndBounded() throws {
        var coordinator = Coordinator(graph: try smallGraph())  // max-history 5
        coordinator.must(push("list"))  // r2 at testTime + 1
        coordinator.must(.popToRoot)  // r3 at testTime + 2
        coordinator.must(.popToRoot)  // no-op: no history
        #expect(coordinator.history(limit: 10) == [
            HistoryEntry(revision: 3, cause: "poptoroot", time: testTime + 2),
            HistoryEntry(revision: 2, cause: "push", time: testTime + 1),
        ])
        #expect(coordinator.history(limit: 1).map(\.revision) == [3])
        for _ in 0..<30 { coordinator.must(push("list")); coordinator.must(.pop) }
        #expect(coordinator.history(limit: 100).count == 5)
        #expect(coordinator.history(limit: 100).first?.revision == coordinator.revision)
        #expect(coordinator.state.history.count <= 10)
    }
}
