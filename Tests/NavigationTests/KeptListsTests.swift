import Testing
@testable import Navigation
import RandomRouteGraphs

/// The undo and redo lists a kept step makes again (Model/KeptLists.swift) are the lists its change left, whatever
/// trimmed the history or the lists in between, and whatever form the steps hold them in.
@Suite(.timeLimit(.minutes(1)))
struct KeptListsTests {
    /// The kept-revision script on a navigator keeping `maxHistory` steps and `maxUndo` undo trees, `rounds` times,
    /// with random undos and redos between; after `lowerUndoAfter` changes, a reload lowers `max-undo` to 1. Returns
    /// the coordinator and the live lists right after each revision.
    static func run(maxHistory: Int, maxUndo: Int, rounds: Int, seed: UInt64, lowerUndoAfter: Int = .max)
        -> (Coordinator, [UInt64: (undo: [Tree], redo: [Tree])])
    {
        var graph = KeptRevisionTests.graph(maxHistory: maxHistory)
        graph.limits.maxUndo = maxUndo
        var coordinator = Coordinator(graph: graph)
        var live: [UInt64: (undo: [Tree], redo: [Tree])] = [:]
        var random = SeededGenerator(seed: seed)
        var made = 0
        for round in 0..<rounds {
            for (index, scripted) in KeptRevisionTests.script.enumerated() {
                let op: Navigation.Operation = switch random.next() % 4 {
                case 0: .undo
                case 1: .redo
                default: scripted
                }
                _ = try? coordinator.perform(op, at: testTime + Int64(round * 100 + index))
                live[coordinator.revision] = (coordinator.state.undo.all, coordinator.state.redo.all)
                made += 1
                if made == lowerUndoAfter {
                    var lower = coordinator.graph
                    lower.limits.maxUndo = 1
                    _ = coordinator.reload(lower, at: testTime)
                    live[coordinator.revision] = (coordinator.state.undo.all, coordinator.state.redo.all)
                }
            }
        }
        return (coordinator, live)
    }

    /// Every kept revision's lists made again, compared with the live ones; returns how many were compared.
    @discardableResult
    static func expectListsMadeAgain(_ state: NavigationState, _ live: [UInt64: (undo: [Tree], redo: [Tree])]) -> Int {
        var compared = 0
        var revisions = state.history.all.map(\.entry.revision)
        if let base = state.base, state.baseExport != nil { revisions.append(base.revision) }
        for revision in revisions {
            guard let lists = state.listsAfter(revision: revision), let expected = live[revision] else {
                Issue.record("the lists after revision \(revision) are not made again")
                continue
            }
            #expect(lists.undo.all.map(\.tree) == expected.undo, "undo after revision \(revision)")
            #expect(lists.redo.all.map(\.tree) == expected.redo, "redo after revision \(revision)")
            compared += 1
        }
        return compared
    }

    @Test(arguments: [(3, 2), (6, 1), (1, 4), (40, 3), (5, 0)])
    func eachKeptRevisionMakesTheListsItsChangeLeft(maxHistory: Int, maxUndo: Int) {
        for seed: UInt64 in [1, 7, 42] {
            let (coordinator, live) = Self.run(maxHistory: maxHistory, maxUndo: maxUndo, rounds: 12, seed: seed)
            #expect((coordinator.state.base?.revision ?? 0) > 1 && coordinator.state.baseExport != nil, "the history was trimmed")
            let compared = Self.expectListsMadeAgain(coordinator.state, live)
            #expect(compared >= maxHistory + 1)
            // Steps hold what their change did, not lists: only the first change of a fresh navigator holds them.
            #expect(coordinator.state.history.all.allSatisfy { $0.export?.lists.pair == nil })
        }
    }

    @Test func aReloadThatShortensTheListsBetweenChangesIsFollowed() {
        let (coordinator, live) = Self.run(maxHistory: 40, maxUndo: 5, rounds: 3, seed: 3, lowerUndoAfter: 20)
        #expect(Self.expectListsMadeAgain(coordinator.state, live) > 20)
    }

    @Test func listsSurviveASnapshotAndTheStepsAfterItFoldFromThem() throws {
        let (coordinator, live) = Self.run(maxHistory: 6, maxUndo: 3, rounds: 3, seed: 9)
        let decoded = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
        #expect(decoded == coordinator.state)
        #expect(decoded.history.all.allSatisfy { $0.export?.lists.pair != nil }, "version 7 holds each step's lists")
        Self.expectListsMadeAgain(decoded, live)
        // Changes after the restore say what they did; the lists they make follow the restored ones.
        var restored = Coordinator(graph: coordinator.graph, restoring: decoded)
        var after = live
        for op in [push("orange"), .undo, .undo, .redo, push("yellow")] as [Navigation.Operation] {
            _ = try? restored.perform(op, at: testTime)
            after[restored.revision] = (restored.state.undo.all, restored.state.redo.all)
        }
        #expect(restored.state.history.all.prefix(5).allSatisfy { $0.export?.lists.pair == nil })
        Self.expectListsMadeAgain(restored.state, after)
    }

    @Test func equalStatesAreEqualWhateverFormTheirStepsHoldTheListsIn() throws {
        let (coordinator, _) = Self.run(maxHistory: 6, maxUndo: 3, rounds: 2, seed: 5)
        var altered = coordinator.state
        var steps = altered.history.all
        // The same lists held as lists: equal. Another list: not equal.
        let lists = altered.listsOfSteps
        for index in steps.indices { steps[index].export?.lists = .lists(try #require(lists[index])) }
        altered.history = BoundedStack(newestFirst: steps)
        #expect(altered == coordinator.state)
        steps[0].export?.lists = .lists(.empty)
        altered.history = BoundedStack(newestFirst: steps)
        #expect(altered != coordinator.state || lists[0] == .empty)
    }
}


extension KeptListsTests {
    @Test func aSnapshotFoldedFromTheMarkIsTheOneFoldedFromTheBase() throws {
        var graph = KeptRevisionTests.graph(maxHistory: 12)
        graph.limits.maxUndo = 3
        var coordinator = Coordinator(graph: graph)
        var random = SeededGenerator(seed: 11)
        var segmentedThrough: UInt64?
        var compared = 0
        for round in 0..<8 {
            for (index, scripted) in KeptRevisionTests.script.enumerated() {
                let op: Navigation.Operation = random.next() % 3 == 0 ? .undo : scripted
                _ = try? coordinator.perform(op, at: testTime + Int64(round * 100 + index))
                guard index % 5 == 4 else { continue }
                // A snapshot: the writer folds from the mark set at the one before; unmarked, from the base.
                var unmarked = coordinator.state
                unmarked.listsMark = ListsMark()
                let marked = coordinator.state.encodedSegment(newerThan: segmentedThrough)
                #expect(marked == unmarked.encodedSegment(newerThan: segmentedThrough), "round \(round), step \(index)")
                #expect(coordinator.state.encodedSnapshot() == unmarked.encodedSnapshot())
                compared += coordinator.state.listsMark.revision == nil ? 0 : 1
                coordinator.markListsForSnapshot()
                segmentedThrough = coordinator.revision
            }
        }
        #expect(compared > 20, "the mark was used")
        // A mark older than the steps asked for, or newer, is not used; redacting drops it.
        coordinator.markListsForSnapshot()
        _ = try? coordinator.perform(push("orange"), at: testTime)
        var unmarked = coordinator.state
        unmarked.listsMark = ListsMark()
        #expect(coordinator.state.encodedSegment(newerThan: nil) == unmarked.encodedSegment(newerThan: nil))
        #expect(coordinator.state.listsOfSteps(newest: 1) == unmarked.listsOfSteps(newest: 1))
        #expect(coordinator.state.redactingParams().listsMark.revision == nil)
    }
}
