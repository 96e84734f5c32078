import Foundation
import Testing
@testable import NavdService

/// The graph a snapshot was written under comes back with it, and an unchanged graph is
/// written once however often the journal is compacted (SQLite would skip rewriting identical
/// pages, but only after reading and comparing every one; the store does not even ask).
@Suite(.timeLimit(.minutes(1)))
struct StoreGraphTests {
    /// A route file's worth of bytes that vary with `seed`.
    func source(_ seed: UInt8, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// The rows SQLite counts as inserted, updated or deleted on the store's connection while
    /// `body` runs (SQLite's own counter: `total_changes()`).
    func rowsChanged(_ store: StateStore, _ body: () throws -> Void) throws -> Int {
        let before = try storeInteger(store, "SELECT total_changes()") ?? 0
        try body()
        return (try storeInteger(store, "SELECT total_changes()") ?? 0) - before
    }

    @Test func theGraphComesBackWithItsSnapshot() throws {
        let temporary = try StoreTemporaryDirectory("graph")
        defer { temporary.remove() }
        let routes = SavedGraph(origin: "/home/me/.config/navd/routes.yaml", source: Array("root: a\n".utf8), limitOverrides: "max-stack-depth=12")
        do {
            let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            #expect(try store.load().graph == nil, "no snapshot, no graph")
            try store.writeSnapshot(revision: 1, nextId: 2, document: [1], graph: routes)
            #expect(try store.load().graph == routes)
            store.close()
        }
        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { store.close() }
        #expect(try store.load().graph == routes)
        let demo = SavedGraph(origin: "demo", source: [], limitOverrides: "")
        try store.writeSnapshot(revision: 2, nextId: 2, document: [2], graph: demo)
        #expect(try store.load().graph == demo)
        try store.writeSnapshot(revision: 3, nextId: 2, document: [3], graph: nil)
        #expect(try store.load().graph == nil, "a snapshot of an unknown graph leaves no graph stored")
        #expect(try storeInteger(store, "SELECT count(*) FROM graph") == 0)
    }

    @Test func anUnchangedGraphIsWrittenOnceAcrossSnapshots() throws {
        let temporary = try StoreTemporaryDirectory("graph-once")
        defer { temporary.remove() }
        let log = temporary.databaseFile + "-wal"
        let mebibyte = 1_024 * 1_024
        let graph = SavedGraph(origin: "/etc/navd/routes.yaml", source: source(1, count: mebibyte), limitOverrides: "")
        var store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { store.close() }
        try store.writeSnapshot(revision: 0, nextId: 1, document: [0], graph: graph)
        let afterFirst = storeFileSize(log)
        #expect(afterFirst > mebibyte, "the first snapshot writes the graph (\(afterFirst) bytes of log)")
        for round in 1...5 {
            try store.append(storeRecords(from: UInt64(round * 10 - 9), count: 9))
            // An equal graph in a buffer of its own, as a reload that read the same bytes gives.
            let copy = SavedGraph(origin: graph.origin, source: source(1, count: mebibyte), limitOverrides: "")
            let rows = try rowsChanged(store) {
                try store.writeSnapshot(revision: UInt64(round * 10), nextId: 1, document: [UInt8(round)], graph: copy)
            }
            #expect(rows == 2 + 9, "the old snapshot row deleted, the new one written and the 9 journal rows it covers, not the graph")
        }
        let afterSix = storeFileSize(log)
        print("log after the first snapshot: \(afterFirst) B; after five more with the same graph: \(afterSix) B")
        #expect(afterSix - afterFirst < 128 * 1_024, "five snapshots added \(afterSix - afterFirst) bytes of log")

        // Reopened, the store does not know what is stored until it looks: still no rewrite.
        store.close()
        store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        let reopenedLog = storeFileSize(log)
        #expect(try rowsChanged(store) { try store.writeSnapshot(revision: 60, nextId: 1, document: [6], graph: graph) } == 2)
        #expect(storeFileSize(log) - reopenedLog < 128 * 1_024)

        // The measure sees a rewrite: another graph costs its megabyte of log.
        let before = storeFileSize(log)
        let rows = try rowsChanged(store) {
            try store.writeSnapshot(
                revision: 70, nextId: 1, document: [7],
                graph: SavedGraph(origin: graph.origin, source: source(2, count: mebibyte), limitOverrides: ""))
        }
        #expect(rows == 3, "the snapshot's two rows and the graph's")
        #expect(storeFileSize(log) - before > mebibyte)
        #expect(try store.load().graph?.source == source(2, count: mebibyte))
    }

    @Test func aFailedSnapshotKeepsTheGraphItReplacedNothingOf() throws {
        try withFreshStore("graph-failed") { store, _ in
            let first = SavedGraph(origin: "a", source: [1], limitOverrides: "")
            try store.writeSnapshot(revision: 5, nextId: 1, document: [5], graph: first)
            // Older than the stored snapshot: refused before anything is written.
            #expect(throws: StoreError.self) {
                try store.writeSnapshot(revision: 4, nextId: 1, document: [4], graph: SavedGraph(origin: "b", source: [2], limitOverrides: ""))
            }
            try withStoreDatabase(store) { try $0.exec("PRAGMA query_only = 1") }
            #expect(throws: StoreError.self) {
                try store.writeSnapshot(revision: 6, nextId: 1, document: [6], graph: SavedGraph(origin: "c", source: [3], limitOverrides: ""))
            }
            try withStoreDatabase(store) { try $0.exec("PRAGMA query_only = 0") }
            #expect(try store.load().graph == first)
            // The store still knows what is on disk: the next snapshot with "c" writes it.
            let third = SavedGraph(origin: "c", source: [3], limitOverrides: "")
            try store.writeSnapshot(revision: 6, nextId: 1, document: [6], graph: third)
            #expect(try store.load().graph == third)
        }
    }
}
