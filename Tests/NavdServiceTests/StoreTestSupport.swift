import Foundation
import Testing
import SQLite
import TestSupport
@testable import NavdService

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct StoreTemporaryDirectory {
    /// The directory's path.
    let path: String

    /// Creates a new, empty directory named after `label`.
    init(_ label: String) throws {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent("navd-store-\(label)-XXXXXX")
        var template = Array(base.utf8CString)
        guard mkdtemp(&template) != nil else { throw CocoaError(.fileWriteUnknown) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The state directory inside it (not created).
    var stateDirectory: String { path + "/state" }
    /// The database file inside the state directory.
    var databaseFile: String { stateDirectory + "/" + StateStore.fileName }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `count` records with revisions starting at `first`, each carrying a small payload that
/// encodes its revision (so a mix-up is visible) and an id counter of ten times the revision.
func storeRecords(from first: UInt64, count: Int, payloadSize: Int = 48) -> [StoredRecord] {
    (0..<UInt64(count)).map { offset in
        let revision = first + offset
        var payload = Array("change \(revision) ".utf8)
        while payload.count < payloadSize { payload.append(UInt8(truncatingIfNeeded: revision &+ UInt64(payload.count))) }
        return StoredRecord(revision: revision, nextId: revision * 10, payload: payload)
    }
}

/// The bytes of the file at `path`, or nil when it cannot be read.
func storeFileBytes(_ path: String) -> [UInt8]? {
    FileText.bytes(atPath: path)
}

/// The size in bytes of the file at `path` (0 when missing).
func storeFileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Runs `body` on the store's connection (test access to the raw database).
func withStoreDatabase<T>(_ store: StateStore, _ body: (Database) throws -> T) throws -> T {
    guard let database = store.database else { throw StoreError(.closed, "closed") }
    return try body(database)
}

/// The first column of the first row of `sql` on the store's connection, as an integer.
func storeInteger(_ store: StateStore, _ sql: String) throws -> Int? {
    try withStoreDatabase(store) { db in try db.firstRow(sql) { Int($0.int64(at: 0)) } }
}

/// A snapshot of `document` at `revision` with no graph and an id counter of ten times the
/// revision (as `storeRecords` gives its rows).
func writeStoreSnapshot(_ store: StateStore, revision: UInt64, document: [UInt8], graph: SavedGraph? = nil) throws {
    try store.writeSnapshot(revision: revision, nextId: revision * 10, document: document, graph: graph)
}

/// Runs `body` with a store opened at `durability` in a fresh temporary directory named after
/// `label`; closes the store and removes the directory afterwards.
func withFreshStore(
    _ label: String, durability: Durability = .normal, _ body: (StateStore, StoreTemporaryDirectory) throws -> Void
) throws {
    let temporary = try StoreTemporaryDirectory(label)
    defer { temporary.remove() }
    let store = try StateStore(directory: temporary.stateDirectory, durability: durability)
    defer { store.close() }
    try body(store, temporary)
}

/// Appends batches of `count` records of `payloadSize` bytes, starting at revision `first`,
/// until the store refuses one or `limit` is reached. Returns the first revision not stored
/// and the refusal (nil when none came).
func appendUntilRefused(
    _ store: StateStore, from first: UInt64, count: Int, payloadSize: Int, limit: UInt64
) -> (next: UInt64, refusal: StoreError?) {
    var revision = first
    while revision < limit {
        do {
            try store.append(storeRecords(from: revision, count: count, payloadSize: payloadSize))
            revision += UInt64(count)
        } catch {
            return (revision, error)
        }
    }
    return (revision, nil)
}

/// Checks the store's counters against what the file holds.
func expectCountersMatchTheFile(_ store: StateStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(store.journalLength == (try storeInteger(store, "SELECT count(*) FROM journal")), sourceLocation: sourceLocation)
    #expect(
        store.journalBytes == (try storeInteger(store, "SELECT coalesce(sum(length(payload)), 0) FROM journal")),
        sourceLocation: sourceLocation)
    #expect(
        store.snapshotBytes == (try storeInteger(store, "SELECT coalesce(sum(length(document)), 0) FROM snapshot")),
        sourceLocation: sourceLocation)
}

/// The permission bits of `path` (0 when it is missing).
func storeFileMode(_ path: String) -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return status.st_mode & 0o7777
}
