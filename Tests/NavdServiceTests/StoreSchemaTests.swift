import Foundation
import SQLite
import Testing
@testable import NavdService

/// Files written by the first navd (schema 1) are migrated in place, in one transaction, and
/// then hold everything schema 2 adds.
@Suite(.timeLimit(.minutes(1)))
struct StoreSchemaTests {
    /// Builds a schema-1 state file in `temporary` with a snapshot at 3 and rows 4...9, the last
    /// three of them only in the write-ahead log, as a navd killed with -9 leaves it. `extra`
    /// runs last (also in the log).
    func writeSchemaOneFile(_ temporary: StoreTemporaryDirectory, extra: String = "") throws {
        try FileManager.default.createDirectory(atPath: temporary.stateDirectory, withIntermediateDirectories: true)
        let scratch = temporary.path + "/old.sqlite3"
        let db = try Database(path: scratch)
        try db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try db.exec(StateStore.firstSchema)  // schema 1, as the store itself declares it
        try db.exec("INSERT INTO snapshot VALUES (1, 3, x'0303'); INSERT INTO journal VALUES (4, x'04'), (5, x'05'), (6, x'')")
        try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        try db.exec("INSERT INTO journal VALUES (7, x'07'), (8, x'0808'), (9, x'09');" + extra)
        // Copied while the connection is open: the last commits exist only in the log.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: scratch + suffix, toPath: temporary.databaseFile + suffix)
        }
        db.close()
    }

    @Test func aSchemaOneFileIsMigratedInPlaceWithEveryRow() throws {
        let temporary = try StoreTemporaryDirectory("migrate")
        defer { temporary.remove() }
        try writeSchemaOneFile(temporary)
        #expect(storeFileSize(temporary.databaseFile + "-wal") > 0, "the last rows are in the log")
        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        #expect(store.notices.contains { $0.contains("migrated") && $0.contains("schema 1 to 4") })
        let contents = try store.load()
        #expect(contents.snapshot?.revision == 3)
        #expect(contents.snapshot?.document == [3, 3])
        #expect(contents.graph == nil)
        #expect(contents.journal == [
            StoredRecord(revision: 4, nextId: 0, payload: [4]), StoredRecord(revision: 5, nextId: 0, payload: [5]),
            StoredRecord(revision: 6, nextId: 0, payload: []), StoredRecord(revision: 7, nextId: 0, payload: [7]),
            StoredRecord(revision: 8, nextId: 0, payload: [8, 8]), StoredRecord(revision: 9, nextId: 0, payload: [9]),
        ])
        #expect(contents.highestRevision == 9)
        #expect(contents.highestNextId == 0)
        #expect(try storeInteger(store, "SELECT value FROM meta WHERE key = 'schema_version'") == 4)
        try expectCountersMatchTheFile(store)
        #expect(store.journalLength == 6)
        // What schema 2 adds works on the migrated file.
        try store.append([StoredRecord(revision: 10, nextId: 77, payload: [10])])
        #expect(try store.setAside(fromRevision: 9, reason: "test") == 2)
        try writeStoreSnapshot(store, revision: 12, document: [12], graph: SavedGraph(origin: "demo", source: [1], limitOverrides: ""))
        store.close()

        let reopened = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { reopened.close() }
        #expect(reopened.notices.isEmpty, "a migrated file is not migrated again")
        let after = try reopened.load()
        #expect(after.highestNextId == 120)
        #expect(after.asideCount == 2)
        #expect(after.graph?.origin == "demo")
    }

    @Test func aMigratedFileHasTheSchemaOfANewOne() throws {
        let old = try StoreTemporaryDirectory("migrated-schema")
        defer { old.remove() }
        try writeSchemaOneFile(old)
        let fresh = try StoreTemporaryDirectory("new-schema")
        defer { fresh.remove() }
        let migrated = try StateStore(directory: old.stateDirectory, durability: .normal)
        defer { migrated.close() }
        let new = try StateStore(directory: fresh.stateDirectory, durability: .normal)
        defer { new.close() }
        let schema = "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name"
        let migratedSchema = try withStoreDatabase(migrated) { db in try db.collect(schema) { $0.text(at: 0) } }
        let newSchema = try withStoreDatabase(new) { db in try db.collect(schema) { $0.text(at: 0) } }
        #expect(migratedSchema == newSchema)
        #expect(newSchema.contains { $0.hasPrefix("table journal_aside:") })
        #expect(newSchema.contains { $0.hasPrefix("table graph:") })
        #expect(try storeInteger(new, "PRAGMA application_id") == Int(StateStore.applicationID))
    }

    @Test func aMigrationThatFailsLeavesTheFileAtSchemaOne() throws {
        let temporary = try StoreTemporaryDirectory("migrate-fails")
        defer { temporary.remove() }
        // A table in the way of the migration's own: its CREATE fails halfway through.
        try writeSchemaOneFile(temporary, extra: "CREATE TABLE journal_aside (x);")
        let error = #expect(throws: StoreError.self) {
            _ = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.contains("journal_aside already exists") == true)
        #expect(error?.message.contains("(SQLite code 1)") == true)
        let db = try Database(path: temporary.databaseFile, flags: [.readOnly])
        defer { db.close() }
        #expect(try db.firstRow("SELECT value FROM meta WHERE key = 'schema_version'") { $0.int64(at: 0) } == 1)
        let columns = try db.collect("SELECT name FROM pragma_table_info('journal')") { $0.text(at: 0) }
        #expect(columns == ["revision", "payload"], "the columns added before the failure were rolled back")
        #expect(try db.firstRow("SELECT count(*) FROM journal") { $0.int64(at: 0) } == 6)
    }
}
