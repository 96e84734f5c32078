import Testing
@testable import Navigation
import RouteFiles

/// Format version 4: each screen, list cell, stack, tab, flow instance and tree stored once; the document a
/// function of the state's value; a step costs what it changed whatever the size of the tree.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotVersion4Tests {
    /// `Tests/Fixtures/routes/v4.yaml`: tabs `a` and `b` rooted at `home`, a route `page(n)` pushed or presented as a
    /// sheet, a flow `task` with output `done`, max-undo 1,000 and max-history 5,000.
    static func graph() throws -> RouteGraph { try fixtureGraph("v4") }

    /// The document's growth per step when `step` (two changes) runs again and again after `setUp` (no step is
    /// trimmed away meanwhile).
    static func growthPerStep(setUp: [Navigation.Operation], step: [Navigation.Operation]) throws -> Int {
        var coordinator = Coordinator(graph: try graph())
        for op in setUp { _ = try coordinator.perform(op, at: 0) }
        var sizes: [Int] = []
        for round in 0..<40 {
            for op in step { _ = try coordinator.perform(op, at: Int64(round)) }
            if round == 9 || round == 39 { sizes.append(coordinator.state.encodedSnapshot().count) }
        }
        #expect(try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot()) == coordinator.state)
        return (sizes[1] - sizes[0]) / 30
    }

    @Test func aStepCostsWhatItChangedWhateverTheTreeHolds() throws {
        let page: Navigation.Operation = .push(route: "page", params: ["n": .int(7)])
        let sheet: Navigation.Operation = .present(route: "page", params: ["n": .int(7)], style: "sheet")
        let start: Navigation.Operation = .start(flow: "task", params: [:])
        let small = try Self.growthPerStep(setUp: [], step: [page, .pop])
        let deepStack = try Self.growthPerStep(setUp: Array(repeating: page, count: 120), step: [.pop, page])
        let manySheets = try Self.growthPerStep(setUp: Array(repeating: sheet, count: 100), step: [.dismiss, sheet])
        let otherTab = try Self.growthPerStep(setUp: Array(repeating: page, count: 120) + [.selectTab("b")], step: [page, .pop])
        let manyFlows = try Self.growthPerStep(setUp: Array(repeating: start, count: 60), step: [.finish(output: "done", params: [:]), start])
        print("bytes per step (two changes): small tree \(small), 121-screen stack \(deepStack), 100 sheets \(manySheets), 120 screens in another tab \(otherTab), 60 flows \(manyFlows)")
        // Two history entries, two trees, a screen and a few cells: tens of bytes, never the tree's size.
        for growth in [small, deepStack, manySheets, otherTab] { #expect(growth <= 100) }
        #expect(manyFlows <= 160)  // also a flow instance
    }

    @Test func theFormatsOfDevelopmentBuildsBefore010AreRefusedByTheirVersion() {
        // Snapshots of versions 2 and 3 and journal records of version 2 were written only before the first
        // package; they are refused like any version this build does not read.
        for version: UInt8 in [2, 3] {
            #expect(throws: SnapshotError.unsupportedVersion(found: Int(version), supported: NavigationState.snapshotVersion)) {
                try NavigationState.decodeSnapshot(Array("NVDS".utf8) + [version, 1, 1])
            }
        }
        #expect(throws: SnapshotError.unsupportedVersion(found: 2, supported: JournalRecord.formatVersion)) {
            try JournalRecord.decode(Array("NVDJ".utf8) + [2, 1])
        }
    }

    @Test func equalStatesEncodeEquallyWhateverTheirMemorySharing() throws {
        var coordinator = Coordinator(graph: try Self.graph())
        for op: Navigation.Operation in [.push(route: "page", params: ["n": .int(1)]), .present(route: "page", params: [:], style: "sheet"), .undo, .selectTab("b")] {
            _ = try coordinator.perform(op, at: 0)
        }
        let bytes = coordinator.state.encodedSnapshot()
        // Every stack copied into a buffer of its own: another sharing, the same value, the same document.
        func unshare(_ tree: Tree) -> Tree {
            var copy = tree
            for tab in copy.tabs.indices {
                for layer in copy.tabs[tab].layers.indices {
                    copy.tabs[tab].layers[layer].screens = copy.tabs[tab].layers[layer].screens.map { $0 }
                }
            }
            return copy
        }
        var unshared = coordinator.state
        unshared.tree = unshare(unshared.tree)
        unshared.undo = BoundedStack(newestFirst: unshared.undo.all.map(unshare))
        unshared.redo = BoundedStack(newestFirst: unshared.redo.all.map(unshare))
        #expect(unshared == coordinator.state && unshared.encodedSnapshot() == bytes)
        #expect(try NavigationState.decodeSnapshot(bytes).encodedSnapshot() == bytes)
    }

    @Test func screensAndFlowsThatShareAnIdButNotTheirContentAreBothKept() throws {
        var coordinator = Coordinator(graph: try Self.graph())
        _ = try coordinator.perform(.start(flow: "task", params: [:]), at: 0)
        var state = coordinator.state
        // No change the model makes gives an id two contents; a state that has them still round-trips exactly.
        var odd = state.tree
        odd.tabs[0].layers[0].screens[1].params = ["n": .int(99)]
        let first = odd.tabs[0].layers[0].screens[1].id
        odd.flows[first]?.params = ["x": .string("other")]
        state.undo = BoundedStack(newestFirst: [odd, state.tree])
        let decoded = try NavigationState.decodeSnapshot(state.encodedSnapshot())
        #expect(decoded == state)
        #expect(decoded.undo.all.first?.tabs[0].layers[0].screens[1].params == ["n": .int(99)])
    }

    @Test func damagedReferencesAreClearErrors() throws {
        var coordinator = Coordinator(graph: try Self.graph())
        _ = try coordinator.perform(.push(route: "page", params: ["n": .int(1)]), at: 0)
        let state = coordinator.state
        // The document ends with the trees' numbers, the history and the facts: point the current tree past the table.
        var writer = ByteWriter()
        writer.raw(NavigationState.snapshotMagic); writer.varint(4); writer.varint(1); writer.varint(3)
        writer.count(1); writer.string("home")  // routes
        writer.count(1); writer.string("#2"); writer.count(0); writer.params([:])  // screens
        writer.count(1); writer.count(0); writer.count(0)  // cells: screen 0 after the empty list
        writer.count(1); writer.byte(0); writer.count(1)  // stacks: root, list 1
        writer.count(0); writer.count(0)  // no tabs, no flows
        writer.count(1); writer.bool(false); writer.varint(0); writer.count(0); writer.count(0)  // a tree with no tabs
        writer.count(0); writer.count(0); writer.count(0); writer.count(0); writer.params([:])
        #expect(throws: SnapshotError.corrupt("tree: no tab or stack")) { try NavigationState.decodeSnapshot(writer.bytes) }
        var badTree = writer.bytes
        badTree[badTree.count - 5] = 1  // the current tree's number
        #expect(throws: SnapshotError.corrupt("tree 1 does not exist (there are 1) at byte \(badTree.count - 4)")) {
            try NavigationState.decodeSnapshot(badTree)
        }
        #expect(try NavigationState.decodeSnapshot(state.encodedSnapshot()) == state)
    }
}
