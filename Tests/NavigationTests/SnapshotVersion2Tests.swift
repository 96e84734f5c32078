import Testing
@testable import Navigation
import RouteFiles

/// Snapshot format version 2: stacks written once, sharing restored, damage rejected.
@Suite(.timeLimit(.minutes(2)))
struct SnapshotVersion2Tests {
    /// A coordinator with 10,000 screens in the "big" tab and the "small" tab selected.
    static func bigTree() throws -> Coordinator {
        var coordinator = Coordinator(graph: try PerformanceMeasurementTests.graph())
        _ = try coordinator.perform(.selectTab("big"), at: 0)
        let screens = [ScreenRequest(route: "home")] + (0..<9_999).map { ScreenRequest(route: "item", params: ["n": .int(Int64($0))]) }
        _ = try coordinator.perform(.setStack(screens), at: 0)
        _ = try coordinator.perform(.selectTab("small"), at: 0)
        return coordinator
    }

    /// 100 undo steps that each push or pop one screen on the small tab.
    static func withUndoSteps(_ start: Coordinator) throws -> Coordinator {
        var coordinator = start
        for step in 0..<100 {
            let op: Operation = step.isMultiple(of: 2) ? .push(route: "item", params: ["n": .int(Int64(step))]) : .pop
            _ = try coordinator.perform(op, at: Int64(step))
        }
        return coordinator
    }

    static func buffer(_ screens: [Screen]) -> UnsafeRawPointer? {
        screens.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test func undoStepsCostOnlyWhatTheyChange() throws {
        let bare = try Self.bigTree()
        let busy = try Self.withUndoSteps(bare)
        #expect(busy.state.undo.count == 103)  // and the three changes that built the tree
        let bareSize = bare.state.encodedSnapshot().count
        let busySize = busy.state.encodedSnapshot().count
        print("snapshot of a 10,000-screen tree: \(bareSize) bytes; with 100 undo steps: \(busySize) bytes")
        #expect(busySize < 3 * bareSize)
        #expect(busySize < 2 * bareSize)
    }

    @Test func decodingRestoresSharing() throws {
        let busy = try Self.withUndoSteps(try Self.bigTree())
        let decoded = try NavigationState.decodeSnapshot(busy.state.encodedSnapshot())
        #expect(decoded == busy.state)
        let trees = [decoded.tree] + decoded.undo.newest(100)  // the older three predate the big stack
        let bigBuffers = Set(trees.map { Self.buffer($0.tabs[1].layers[0].screens) })
        #expect(bigBuffers.count == 1 && bigBuffers.first! != nil)
        #expect(trees.count == 101 && trees.allSatisfy { $0.tabs[1].layers[0].screens.count == 10_000 })
        // Two undo trees two steps apart hold the same small stack (push then pop): equal, so stored once and
        // shared after decoding, whether or not they shared a buffer before.
        let original = busy.state.undo.all, restored = decoded.undo.all
        for (index, tree) in original.enumerated().dropFirst(2) {
            let equal = tree.tabs[0].layers[0].screens == original[index - 2].tabs[0].layers[0].screens
            let isShared = Self.buffer(restored[index].tabs[0].layers[0].screens) == Self.buffer(restored[index - 2].tabs[0].layers[0].screens)
            #expect(equal == isShared)
        }
        let sameDocument = decoded.encodedSnapshot() == busy.state.encodedSnapshot()  // a Bool: no diff of big arrays
        #expect(sameDocument)
    }

    @Test func distinctStacksAreWrittenOnceEach() throws {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(.selectTab("news"))
        coordinator.must(push("news-item", ["id": .int(3)]))
        let state = coordinator.state
        let bytes = state.encodedSnapshot()
        let decoded = try NavigationState.decodeSnapshot(bytes)
        let trees = decoded.undo.all
        // The rainbow tab's stack is untouched by the last two changes: shared by the current tree and both.
        let rainbow = Set(([decoded.tree] + trees.prefix(2)).map { Self.buffer($0.tabs[0].layers[0].screens) })
        #expect(rainbow.count == 1)
        let profile = Set(([decoded.tree] + trees).map { Self.buffer($0.tabs[2].layers[0].screens) })
        #expect(profile.count == 1)
    }

    @Test func damagedDocumentsAreClearErrorsNeverCrashes() throws {
        let coordinator = SnapshotTests().busyCoordinator()
        let good = coordinator.state.encodedSnapshot()
        for length in 0..<good.count {
            #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(Array(good.prefix(length))) }
        }
        #expect(throws: SnapshotError.corrupt("unexpected bytes after the snapshot at byte \(good.count)")) {
            try NavigationState.decodeSnapshot(good + [0])
        }
        #expect(throws: SnapshotError.corrupt("not a navd state snapshot (no 'NVDS' magic)")) {
            try NavigationState.decodeSnapshot(Array("NVDJ".utf8) + good.dropFirst(4))
        }
        var future = good
        future[4] = 5
        #expect(throws: SnapshotError.unsupportedVersion(found: 5, supported: 4)) { try NavigationState.decodeSnapshot(future) }
        var decodedDamaged = 0
        for position in 5..<good.count {
            for change: UInt8 in [0xFF, 0x01, 0x80] {
                var damaged = good
                damaged[position] ^= change
                guard let state = try? NavigationState.decodeSnapshot(damaged) else { continue }
                decodedDamaged += 1
                // Whatever still decodes is a usable state by the version-1 rules.
                for tree in [state.tree] + state.undo.all + state.redo.all {
                    #expect(tree.structuralProblem() == nil)
                    #expect((tree.highestIdNumber ?? 0) < state.ids.next)
                }
            }
        }
        print("\(decodedDamaged) of \(3 * (good.count - 5)) single-byte damages still decode to a valid state")
    }

    @Test func badTreesAreRejectedWithTheReason() {
        var reused = demo().state
        reused.ids = IdCounter(next: 5)
        #expect(throws: SnapshotError.corrupt("tree: id '#6' is not below the next id 5: ids would be reused")) {
            try NavigationState.decodeSnapshot(reused.encodedSnapshot())
        }
        var duplicated = demo().state
        duplicated.tree.tabs[1].layers[0].screens.append(Screen(id: "#2", route: "news-item", params: [:]))
        #expect(throws: SnapshotError.corrupt("tree: screen id '#2' is empty or used twice")) {
            try NavigationState.decodeSnapshot(duplicated.encodedSnapshot())
        }
        var tabClash = demo().state
        tabClash.tree.tabs[0].id = "#4"
        #expect(throws: SnapshotError.corrupt("tree: screen id '#4' is empty or used twice")) {
            try NavigationState.decodeSnapshot(tabClash.encodedSnapshot())
        }
        var misplaced = demo().state
        misplaced.undo = BoundedStack(newestFirst: [misplaced.tree])
        misplaced.undo = BoundedStack(newestFirst: [Tree(isTabbed: true, tabs: misplaced.tree.tabs, selected: 7)])
        #expect(throws: SnapshotError.corrupt("an undo/redo tree: selected tab 7 does not exist")) {
            try NavigationState.decodeSnapshot(misplaced.encodedSnapshot())
        }
        var emptyStack = demo().state
        emptyStack.tree.tabs[2].layers[0].screens = []
        #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(emptyStack.encodedSnapshot()) }
    }
}
