import Testing
@testable import Navigation

/// What Export keeps per change (Model/RecordingStartState.swift): the id counter before it, its graph
/// generation and the undo and redo lists right after it; shared between steps, kept by snapshot version 7.
@Suite(.timeLimit(.minutes(1)))
struct ExportKeptTests {
    static func session() -> Coordinator {
        var coordinator = demo()
        coordinator.must(push("orange"))      // 2
        coordinator.must(push("yellow"))      // 3
        coordinator.must(.undo)               // 4
        coordinator.must(push("green"))       // 5
        coordinator.must(.revert(revision: 3, expectedRevision: 0))  // 6
        return coordinator
    }

    @Test func eachChangeKeepsItsIdCounterAndWhatItDidToTheLists() throws {
        // The live lists right after each change, to compare with those the steps make again.
        var coordinator = demo()
        var live: [(undo: [Tree], redo: [Tree])] = []
        for op in [push("orange"), push("yellow"), .undo, push("green"), .revert(revision: 3, expectedRevision: 0)] as [Operation] {
            coordinator.must(op)
            live.insert((coordinator.state.undo.all, coordinator.state.redo.all), at: 0)
        }
        let steps = coordinator.state.history.all
        #expect(steps.map(\.entry.revision) == [6, 5, 4, 3, 2])
        let exports = try steps.map { try #require($0.export) }
        #expect(exports.allSatisfy { $0.graph == 1 })
        #expect(exports[4].nextId < exports[3].nextId, "each push took an id")
        // The first change after a fresh navigator holds its lists (no step says how the ones before came); the
        // others, what they did.
        #expect(exports[4].lists.pair != nil && exports[0..<4].allSatisfy { $0.lists.pair == nil })
        #expect(exports[2].lists == .change(ListChange(kind: .undo(count: 1), undoCount: 1, redoCount: 1)))
        let made = coordinator.state.listsOfSteps.map { $0.map { ($0.undo.all.map(\.tree), $0.redo.all.map(\.tree)) } }
        #expect(made.count == 5)
        for (index, lists) in made.enumerated() {
            let lists = try #require(lists)
            #expect(lists.0 == live[index].undo && lists.1 == live[index].redo, "the lists after revision \(6 - index)")
        }
        // A push made again adds one cell on top of the lists the step before made, holding that step's state.
        let lists = coordinator.state.listsOfSteps.map { $0! }
        #expect(lists[0].undo.top?.count == 3 && lists[0].undo.top?.below === lists[1].undo.top)
        #expect(lists[3].undo.top?.below === lists[4].undo.top)
        if case .kept(let kept) = lists[0].undo.top?.element { #expect(kept == steps[1].after) } else { Issue.record("not a kept state") }
    }

    @Test func snapshotSevenKeepsItAndSharesTheCellsAgain() throws {
        let coordinator = Self.session()
        let decoded = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
        #expect(decoded == coordinator.state)
        let exports = decoded.history.all.compactMap(\.export)
        #expect(exports.count == 5 && exports.map(\.nextId) == coordinator.state.history.all.compactMap(\.export).map(\.nextId))
        let lists = exports.compactMap(\.lists.pair)
        #expect(lists.count == 5, "version 7 holds each step's lists")
        #expect(lists[0].undo.top?.below === lists[1].undo.top, "read back as shared cells")
        let restored = Coordinator(graph: .demo, restoring: decoded)
        let before = try coordinator.exportedStretch(from: 0) { _ in true }
        let after = try restored.exportedStretch(from: 0) { _ in true }
        #expect(after.changes == before.changes && after.start == before.start)
    }

    @Test func theStartStateIsTheStateAfterItsRevisionWithItsLists() throws {
        let coordinator = Self.session()
        let stretch = try coordinator.exportedStretch(from: 4) { _ in true }
        #expect(stretch.start.revision == 3 && stretch.changes.map(\.info.entry.revision) == [4, 5, 6])
        #expect(stretch.start.undo.count == 2 && stretch.start.redo.isEmpty)
        #expect(stretch.start.history.all.map(\.entry.revision) == [3, 2])
        var replayed = Coordinator(graph: .demo, restoring: stretch.start)
        #expect(replayed.path == coordinator.state.history.all[3].after!.state.tree.path)
        replayed.must(.undo)
        #expect(replayed.routesOnPath == ["red", "orange"], "the start's undo list goes back as the original did")
        // The base (revision 1) starts a stretch from 0; a revision after every change has none.
        #expect(try coordinator.exportedStretch(from: 0) { _ in true }.start.revision == 1)
        #expect(throws: NavigationError.self) { try coordinator.exportedStretch(from: 7) { _ in true } }
        // Changes under a graph generation the service does not know are passed over.
        #expect(throws: NavigationError.self) { try coordinator.exportedStretch(from: 0) { _ in false } }
    }

    @Test func redactionReplacesEveryParamValueKeepingItsType() {
        #expect(ParamValue.string("héllo").placeholder == .string("xxxxx"))
        #expect(ParamValue.int(42).placeholder == .int(0) && ParamValue.double(2.5).placeholder == .double(0))
        #expect(ParamValue.bool(true).placeholder == .bool(false))
        let graph = RouteGraph.demo
        // A link's param keeps its declared type, so that navd still reads the redacted link (news-item's id is an
        // int); an undeclared param of a generic path is a string of as many `x`.
        #expect(graph.redactedTarget("/news/12345") == "/news/0")
        #expect(graph.redactedTarget("/news/news-list/news-item;id=7;note=hi") == "/news/news-list/news-item;id=0;note=xx")
        #expect(graph.redactedTarget("/rainbow/orange;id=42;name=bob") == "/rainbow/orange;id=xx;name=xxx")
        #expect(graph.redactedTarget("signed-in-home") == "signed-in-home")
    }
}
