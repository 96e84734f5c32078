import Foundation
@testable import Navigation
import RouteFiles
import SQLite
import Testing
@testable import NavdService

/// Snapshots written incrementally, each adding a segment of the kept steps made since the one before, are read back
/// into the state a whole document gives, and the file keeps only the segments that hold kept steps
/// (docs/durability.md#incremental-snapshots).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct StoreSegmentTests {
    func graph(maxHistory: Int) -> RouteGraph {
        var graph = RouteGraph.demo
        graph.limits.maxHistory = maxHistory
        return graph
    }

    @Test(arguments: [(0, 3), (1, 2), (4, 3), (6, 10), (50, 7)])
    func incrementalSnapshotsRestoreTheKeptSteps(maxHistory: Int, every: Int) throws {
        try withFreshStore("segments") { store, _ in
            var coordinator = Coordinator(graph: graph(maxHistory: maxHistory))
            let ops: [Navigation.Operation] = [.push(route: "orange", params: [:]), .selectTab("profile"), .pop, .selectTab("rainbow")]
            var whole = true
            for index in 0..<120 {
                _ = try? coordinator.perform(ops[index % ops.count], at: Int64(1_000_000 + index))
                guard (index + 1) % every == 0 else { continue }
                if whole {
                    // A whole document first, as at start-up or after a reload: it holds every kept step.
                    try store.writeSnapshot(
                        revision: coordinator.revision, nextId: coordinator.state.nextIdNumber, document: coordinator.encodedSnapshot(),
                        graph: nil)
                    whole = false
                    #expect(store.segmentedThrough == nil)
                    continue
                }
                let encoded = coordinator.encodedIncrementally(segmentedThrough: store.segmentedThrough)
                try store.writeSnapshot(
                    revision: coordinator.revision, nextId: coordinator.state.nextIdNumber, document: encoded.head, graph: nil,
                    segment: .add(newest: encoded.newest, document: encoded.segment, keepFrom: encoded.keepFrom))
                #expect(store.segmentedThrough == coordinator.revision)
            }
            let contents = try store.load()
            #expect(!contents.segments.isEmpty)
            #expect(contents.segments.count <= (maxHistory + 2) / max(1, every * 3 / 4) + 2, "segments older than the kept steps go (about three revisions per four calls)")
            let input = RestoreInput(
                snapshot: contents.snapshot?.document, journal: [], highestRevision: contents.highestRevision,
                highestNextId: contents.highestNextId, segments: contents.segments)
            let restored = try Coordinator.restore(input, savedGraph: coordinator.graph, currentGraph: coordinator.graph, at: 2_000_000)
            // The kept steps up to the last snapshot read back as they were.
            let snapshotRevision = try #require(contents.snapshot?.revision)
            for revision in (coordinator.oldestKept())...snapshotRevision {
                #expect(try restored.coordinator.state(at: revision) == coordinator.state(at: revision), "revision \(revision)")
            }
            #expect(restored.coordinator.history(limit: maxHistory).map(\.revision)
                == Array(coordinator.state.history.newest(1_000).map(\.entry.revision).filter { $0 <= snapshotRevision }.prefix(maxHistory)))
        }
    }

    /// Every `StateStore.maxSegments`th snapshot is written whole: the segments it folds in go, and with them the
    /// trees they repeated.
    @Test func theSnapshotAfterTheMostSegmentsIsWrittenWhole() throws {
        try withFreshStore("segments-whole") { store, _ in
            var coordinator = Coordinator(graph: graph(maxHistory: 1_000))
            var wholes = 0
            for index in 0..<(3 * StateStore.maxSegments) {
                _ = try coordinator.perform(index % 2 == 0 ? .push(route: "orange", params: [:]) : .pop, at: Int64(index))
                let whole = store.snapshotsWhole
                #expect(whole == (store.segmentCount == StateStore.maxSegments), "snapshot \(index)")
                let encoded = coordinator.encodedIncrementally(segmentedThrough: store.segmentedThrough, whole: whole)
                #expect(encoded.whole == whole)
                try store.writeSnapshot(
                    revision: coordinator.revision, nextId: coordinator.state.nextIdNumber, document: encoded.head, graph: nil,
                    segment: whole ? .none : .add(newest: encoded.newest, document: encoded.segment, keepFrom: encoded.keepFrom))
                if whole {
                    wholes += 1
                    #expect(store.segmentCount == 0 && store.segmentBytes == 0 && store.segmentedThrough == nil)
                }
                #expect(store.segmentCount <= StateStore.maxSegments)
                let contents = try store.load()
                #expect(contents.segments.count == store.segmentCount)
                let restored = try Coordinator.restore(
                    RestoreInput(snapshot: contents.snapshot?.document, journal: [], segments: contents.segments),
                    savedGraph: coordinator.graph, currentGraph: coordinator.graph, at: 0)
                #expect(restored.coordinator.state.history.newest(1_000) == coordinator.state.history.newest(1_000), "snapshot \(index)")
            }
            #expect(wholes == 2)
        }
    }

    /// A file of schema 3 or 2 (a whole snapshot, no segment table) is read as before, migrated to 4, and then
    /// written incrementally; what it kept reads back through both.
    @Test(arguments: [2, 3])
    func anOlderSchemasWholeSnapshotIsReadThenWrittenIncrementally(schema: Int) throws {
        let temporary = try StoreTemporaryDirectory("segments-schema-\(schema)")
        defer { temporary.remove() }
        var coordinator = Coordinator(graph: graph(maxHistory: 20))
        let ops: [Navigation.Operation] = [.push(route: "orange", params: [:]), .selectTab("profile"), .pop, .selectTab("rainbow")]
        func perform(_ count: Int) {
            for index in 0..<count { _ = try? coordinator.perform(ops[index % ops.count], at: Int64(1_000_000 + index)) }
        }
        func restoredHistory(_ store: StateStore) throws -> [HistoryEntry] {
            let contents = try store.load()
            let restored = try Coordinator.restore(
                RestoreInput(snapshot: contents.snapshot?.document, journal: [], segments: contents.segments),
                savedGraph: coordinator.graph, currentGraph: coordinator.graph, at: 0)
            return restored.coordinator.history(limit: 1_000)
        }
        perform(30)
        do {
            let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            defer { store.close() }
            try store.writeSnapshot(
                revision: coordinator.revision, nextId: coordinator.state.nextIdNumber, document: coordinator.encodedSnapshot(), graph: nil)
        }
        // What navd wrote before schema 4: the same snapshot row, without the segment table (and for 2, the graph's text).
        do {
            let db = try Database(path: temporary.databaseFile)
            defer { db.close() }
            try db.exec("DROP TABLE history_segment;" + (schema == 2 ? "DROP TABLE graph_text;" : "")
                + "UPDATE meta SET value = \(schema) WHERE key = 'schema_version'")
        }
        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { store.close() }
        #expect(store.notices.contains { $0.contains("migrated") && $0.contains("schema \(schema) to 4") }, "\(store.notices)")
        #expect(store.segmentCount == 0 && store.segmentedThrough == nil)
        #expect(try restoredHistory(store) == coordinator.history(limit: 1_000))
        for _ in 0..<3 {
            perform(9)
            let encoded = coordinator.encodedIncrementally(segmentedThrough: store.segmentedThrough)
            try store.writeSnapshot(
                revision: coordinator.revision, nextId: coordinator.state.nextIdNumber, document: encoded.head, graph: nil,
                segment: .add(newest: encoded.newest, document: encoded.segment, keepFrom: encoded.keepFrom))
            #expect(try restoredHistory(store) == coordinator.history(limit: 1_000))
        }
        #expect(store.segmentCount >= 2)
    }

    /// A new file is made with `auto_vacuum = INCREMENTAL`, and a whole document gives the pages of what it replaced
    /// back to the file system: after a large state, a small one leaves a small file. An incremental snapshot keeps
    /// them for the rows that come next.
    @Test func aWholeDocumentGivesTheFreedPagesBack() throws {
        try withFreshStore("vacuum") { store, _ in
            #expect(try storeInteger(store, "PRAGMA auto_vacuum") == 2)
            let pageSize = try #require(try storeInteger(store, "PRAGMA page_size"))
            try store.writeSnapshot(revision: 1, nextId: 1, document: [UInt8](repeating: 7, count: 2_000_000), graph: nil)
            let large = try #require(try storeInteger(store, "PRAGMA page_count")) * pageSize
            #expect(large >= 2_000_000)
            try store.writeSnapshot(
                revision: 2, nextId: 1, document: [1, 2, 3], graph: nil,
                segment: .add(newest: 2, document: [4, 5, 6], keepFrom: nil))
            #expect(try #require(try storeInteger(store, "PRAGMA page_count")) * pageSize >= 2_000_000, "an incremental snapshot keeps them")
            try store.writeSnapshot(revision: 3, nextId: 1, document: [1, 2, 3], graph: nil)
            let small = try #require(try storeInteger(store, "PRAGMA page_count")) * pageSize
            #expect(small < 100_000, "after the whole document the file holds \(small) bytes (\(large) before)")
        }
    }
}
