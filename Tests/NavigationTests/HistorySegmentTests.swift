import Testing
@testable import Navigation
import RouteFiles

/// Kept steps written as segments, each holding only the steps made since the one before, merge back into the state
/// the whole document gives (docs/durability.md#incremental-snapshots).
@Suite(.timeLimit(.minutes(1)))
struct HistorySegmentTests {
    /// Runs the kept-revision script `rounds` times on a navigator keeping `maxHistory` steps, writing a segment
    /// every `every` changes; returns the coordinator and the segments, newest first.
    func run(maxHistory: Int, every: Int, rounds: Int) throws -> (Coordinator, [[UInt8]]) {
        var coordinator = Coordinator(graph: KeptRevisionTests.graph(maxHistory: maxHistory))
        var segments: [[UInt8]] = []
        var segmentedThrough: UInt64?
        var made = 0
        for round in 0..<rounds {
            for (index, op) in KeptRevisionTests.script.enumerated() {
                _ = try? coordinator.perform(op, at: testTime + Int64(round * 100 + index))
                made += 1
                if made % every == 0, let segment = coordinator.state.encodedSegment(newerThan: segmentedThrough) {
                    segments.insert(segment, at: 0)
                    segmentedThrough = coordinator.revision
                }
            }
        }
        if let segment = coordinator.state.encodedSegment(newerThan: segmentedThrough) { segments.insert(segment, at: 0) }
        return (coordinator, segments)
    }

    @Test(arguments: [(0, 2), (1, 3), (3, 2), (6, 5), (6, 40), (100, 7)])
    func segmentsBelowAHeadGiveTheStateTheWholeDocumentGives(maxHistory: Int, every: Int) throws {
        let (coordinator, segments) = try run(maxHistory: maxHistory, every: every, rounds: 4)
        let keep = maxHistory + 1
        let whole = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot(historyLimit: keep))
        let head = try NavigationState.decodeSnapshot(coordinator.state.encodedHead())
        #expect(head.history.count == 0)
        let decoded = try segments.map { bytes throws(SnapshotError) in try NavigationState.decodeSnapshot(bytes) }
        let merged = NavigationState.merging(head: head, segments: decoded, keep: keep)
        #expect(merged.history.count <= keep)
        #expect(merged.history.newest(keep) == whole.history.newest(keep))
        // The base is the state right before the oldest step kept, as in memory (the whole document, cut to `keep`
        // steps, leaves it out when memory holds more).
        let live = coordinator.state.history.newest(keep + 1)
        let expectedBase = live.count > keep
            ? live[keep].after.map { KeptRevision(revision: live[keep].entry.revision, state: $0.state) }
            : coordinator.state.base
        #expect(merged.base == expectedBase)
        #expect(merged.baseExport == (live.count > keep ? live[keep].export : coordinator.state.baseExport))
        let expectedLists = live.count > keep ? coordinator.state.listsAfter(revision: live[keep].entry.revision) : coordinator.state.baseExport?.lists.pair
        #expect(merged.baseExport?.lists.pair == expectedLists, "the base's lists, made from the segments' steps")
        var withoutBase = merged
        withoutBase.base = whole.base
        withoutBase.baseExport = whole.baseExport
        #expect(withoutBase == whole)
        // The segments together hold each step about once, not once per segment.
        let bytes = segments.reduce(0) { $0 + $1.count }
        #expect(segments.count >= 2)
        print("maxHistory \(maxHistory) every \(every): \(segments.count) segments, \(bytes) B; whole document \(coordinator.state.encodedSnapshot(historyLimit: keep).count) B")
    }

    /// Each segment holds the tree its newest step left, so the head and the segments repeat the screens of a stack
    /// that does not change; a restore decodes them together and holds each screen once, as from the whole document.
    @Test func aRestoreHoldsEachScreenOnceHoweverManySegmentsRepeatIt() throws {
        var coordinator = try SnapshotSizeTests.build(pages: 40, bodyBytes: 4096, pairs: 0)
        var segments: [[UInt8]] = []
        var segmentedThrough: UInt64?
        for pair in 0..<12 {
            _ = try coordinator.perform(.pop, at: 0)
            _ = try coordinator.perform(.push(route: "page", params: ["body": .string("pair \(pair)")]), at: 0)
            let encoded = coordinator.encodedIncrementally(segmentedThrough: segmentedThrough)
            if let segment = encoded.segment { segments.insert(segment, at: 0) }
            segmentedThrough = encoded.newest
        }
        #expect(segments.count == 12)
        let head = coordinator.encodedIncrementally(segmentedThrough: segmentedThrough).head
        let restored = try Coordinator.restore(
            RestoreInput(snapshot: head, journal: [], segments: segments), savedGraph: coordinator.graph,
            currentGraph: coordinator.graph, at: 0)
        let whole = try NavigationState.decodeSnapshot(coordinator.encodedSnapshot())
        #expect(restored.coordinator.state.history.newest(1_000) == whole.history.newest(1_000))
        let heap = Self.stringBytes(restored.coordinator.state), wholeHeap = Self.stringBytes(whole)
        // Without the sharing, each of the 12 segments holds the 40 screens of 4 KiB again: about 12 × 160 KiB.
        #expect(heap == wholeHeap, "a restore from a head and 12 segments holds \(heap) B of params, the whole document \(wholeHeap) B")
    }

    /// The bytes of the distinct long strings (each storage once) the params of every tree of `state` hold, the kept
    /// steps' included.
    static func stringBytes(_ state: NavigationState) -> Int {
        var seen: Set<UnsafeRawPointer> = []
        var total = 0
        for tree in SnapshotSizeTests.trees(state) {
            for screen in SnapshotSizeTests.screens(tree) {
                for case .string(var text) in screen.params.values where text.utf8.count > 15 {
                    let storage = text.withUTF8 { $0.baseAddress.map(UnsafeRawPointer.init) }
                    if let storage, seen.insert(storage).inserted { total += text.utf8.count }
                }
            }
        }
        return total
    }
}
