import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// The compact form of the kept history steps (Model/KeptState.swift): what they hold in memory grows with what
/// the changes did, never with (tree size × kept changes); made whole again they are the states as recorded.
@Suite(.timeLimit(.minutes(2)))
struct KeptStateTests {
    /// Two tabs of 127 pages each, max-history 1,000 (`Tests/Fixtures/routes/kept.yaml`).
    static func twoDeepTabs() throws -> Coordinator {
        let graph = try fixtureGraph("kept")
        var coordinator = Coordinator(graph: graph)
        for tab in ["b", "a"] {
            _ = try coordinator.perform(.selectTab(tab), at: 0)
            for n in 1...126 { _ = try coordinator.perform(.push(route: "page", params: ["n": .int(Int64(n))]), at: 0) }
        }
        return coordinator
    }

    static func cells(_ coordinator: Coordinator) -> Int {
        KeptState.cellCount(coordinator.state.history.all.compactMap(\.after))
    }

    @Test func aPushOrPopOnA128ScreenStackAddsAtMostOneCell() throws {
        var coordinator = try Self.twoDeepTabs()
        #expect(coordinator.depth == 127)
        let before = Self.cells(coordinator)
        for n in 0..<200 {
            _ = try coordinator.perform(n % 2 == 0 ? .push(route: "page", params: ["n": .int(Int64(1000 + n))]) : .pop, at: 0)
        }
        let afterPairs = Self.cells(coordinator)
        // 100 pushes (one new screen each), 100 pops (none), whatever the stacks and the other tab hold.
        #expect(afterPairs - before == 100)
        _ = try coordinator.perform(.selectTab("b"), at: 0)
        _ = try coordinator.perform(.selectTab("a"), at: 0)
        #expect(Self.cells(coordinator) == afterPairs, "selecting a tab adds no cell")
        _ = try coordinator.perform(.replace(route: "page", params: ["n": .int(-1)]), at: 0)
        #expect(Self.cells(coordinator) == afterPairs + 1, "a replace adds the screen it put on top")
        // Made whole, the newest step is the live state, two stacks of 127 screens.
        let newest = try #require(coordinator.state.history.all.first?.after)
        #expect(newest.state == coordinator.state.revisionState)
        #expect(newest.state.tree.tabs.map { $0.layers[0].screens.count }.sorted() == [127, 127])
    }

    /// A kept state tells the tabs and stacks that did not change by identity (`KeptState.init`, `KeptTab.init`):
    /// a step whose tabs all equal the step before's holds that step's very array, and a push shares every stack
    /// but the one it grew, down to the cells of that one's bottom.
    @Test func stepsThatChangeNoTabHoldTheStepBeforesTabs() throws {
        var coordinator = try Self.twoDeepTabs()
        func newest(_ back: Int = 0) throws -> KeptState { try #require(coordinator.state.history.all[back].after) }
        _ = try coordinator.perform(.selectTab("b"), at: 0)
        #expect(try newest().keptTabs.sameBuffer(as: newest(1).keptTabs), "a tab switch changes no tab")
        #expect(try newest().selectedTab == "b" && newest(1).selectedTab == "a")
        _ = try coordinator.perform(.push(route: "page", params: ["n": .int(-2)]), at: 0)
        let pushed = try newest(), before = try newest(1)
        #expect(!pushed.keptTabs.sameBuffer(as: before.keptTabs))
        #expect(pushed.keptTabs[0].layers.sameBuffer(as: before.keptTabs[0].layers), "tab a is untouched")
        #expect(pushed.keptTabs[1].layers[0].screens.below === before.keptTabs[1].layers[0].screens, "one cell on top")
        _ = try coordinator.perform(.pop, at: 0)
        #expect(try newest().keptTabs[1].layers[0].screens === before.keptTabs[1].layers[0].screens, "the pop is back")
        #expect(try newest().state == before.state)
    }

    @Test func restoredStepsShareAgain() throws {
        var coordinator = try Self.twoDeepTabs()
        for n in 0..<300 {
            _ = try coordinator.perform(n % 2 == 0 ? .push(route: "page", params: ["n": .int(Int64(1000 + n))]) : .pop, at: 0)
        }
        let restored = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
        #expect(restored == coordinator.state)
        let cells = KeptState.cellCount(restored.history.all.compactMap(\.after))
        #expect(cells == Self.cells(coordinator), "the same cells as before the restart: \(cells)")
        #expect(cells <= 2 * 127 + 150 + 2)
    }

    @Test func theSnapshotStoresTheKeptStepsAndNoMore() throws {
        var coordinator = Coordinator(graph: KeptRevisionTests.graph(maxHistory: 6))
        for n in 0..<11 {
            _ = try coordinator.perform(n % 2 == 0 ? .push(route: "orange", params: [:]) : .pop, at: testTime + Int64(n))
        }
        #expect(coordinator.state.history.count == 11, "the model holds up to twice max-history between trims")
        let document = coordinator.encodedSnapshot()
        #expect(document.count < coordinator.state.encodedSnapshot().count)
        let restored = Coordinator(graph: coordinator.graph, restoring: try NavigationState.decodeSnapshot(document))
        #expect(restored.state.history.count == 7)
        #expect(restored.history(limit: 100) == coordinator.history(limit: 100))
        for revision in (coordinator.revision - 6)...coordinator.revision {
            #expect(try restored.state(at: revision) == coordinator.state(at: revision), "revision \(revision)")
        }
        #expect(throws: NavigationError.self) { try restored.state(at: coordinator.revision - 7) }
        #expect(throws: NavigationError.self) { try coordinator.state(at: coordinator.revision - 7) }
    }

    /// Random graphs and calls: every history step, made whole, is the state recorded right after its change,
    /// and so is it after a snapshot.
    @Test func everyStepMadeWholeIsTheStateAfterItsChange() async {
        await propertyCheck(count: RestorePropertyTests.cases(short: 100, long: 2_000), input: Gen.int(in: 0...999_999).array(of: 2...120)) { codes in
            let graph = ReloadPropertyTests.randomGraph(codes[0], shape: codes[0])
            var live = Coordinator(graph: graph)
            var recorded: [UInt64: RevisionState] = [:]
            for (step, code) in codes.dropFirst().enumerated() {
                guard (try? live.perform(ReloadPropertyTests.operation(code), at: testTime + Int64(step))) != nil else { continue }
                recorded[live.revision] = live.state.revisionState
            }
            for state in [live.state, (try? NavigationState.decodeSnapshot(live.state.encodedSnapshot())) ?? live.state] {
                for step in state.history.all {
                    guard let expected = recorded[step.entry.revision] else { continue }
                    #expect(step.after?.state == expected, "revision \(step.entry.revision)")
                    #expect(step.after?.topRoute == expected.tree.topScreen.route)
                }
            }
        }
    }
}
