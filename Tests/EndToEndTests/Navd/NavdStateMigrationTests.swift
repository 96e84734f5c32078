import DBus
import Foundation
import SQLite
import Testing
import TestSupport

/// A state file written by the first navd (schema 1) is served by this one: migrated in place
/// at start, logged, every answered change kept.
@Suite("navd state migration", .serialized, .timeLimit(.minutes(2)))
struct NavdStateMigrationTests {
    /// Takes a state file of today's schema back to what the first navd wrote: the columns and
    /// tables of schemas 2 to 4 dropped, schema version 1 (the rows' bytes were the same in all).
    func downgradeToSchemaOne(_ file: String) throws {
        let db = try Database(path: file)
        defer { db.close() }
        try db.exec("""
            ALTER TABLE journal DROP COLUMN next_id;
            ALTER TABLE snapshot DROP COLUMN next_id;
            DROP TABLE graph;
            DROP TABLE journal_aside;
            DROP TABLE graph_text;
            DROP TABLE history_segment;
            UPDATE meta SET value = 1 WHERE key = 'schema_version';
            """)
    }

    /// The schema version of the state file `file`.
    func schemaVersion(_ file: String) throws -> Int64? {
        let db = try Database(path: file, flags: [.readOnly])
        defer { db.close() }
        return try db.firstRow("SELECT value FROM meta WHERE key = 'schema_version'") { $0.int64(at: 0) }
    }

    @Test func aSchemaOneStateFileIsMigratedAtStartWithEveryAnsweredChange() throws {
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        let (navd, file) = (fixture.navd, fixture.stateFile)
        let client = try Connection(.address(fixture.bus.address))
        _ = try client.navigator("Push", [.string("orange"), .emptyParams])
        _ = try client.navigator("Push", [.string("yellow"), .emptyParams])
        let answered = try client.navigatorState()
        // Killed: the last changes are journal rows, some only in the log, as an old navd leaves them.
        navd.kill9()
        try downgradeToSchemaOne(file)
        #expect(try schemaVersion(file) == 1)

        try navd.start()
        let restored = try client.navigatorState()
        #expect(restored.revision == answered.revision)
        #expect(restored.path == answered.path)
        #expect(navd.stderr.contains("migrated navd state file \(file) from schema 1 to 4"), "\(navd.stderr)")
        let next = try client.navigator("Push", [.string("green"), .emptyParams])[0].uint64Value
        #expect(next == answered.revision + 1)
        #expect(navd.stop() == 0)
        #expect(try schemaVersion(file) == 4)

        try navd.start()
        #expect(try client.navigatorState().revision == answered.revision + 1)
        #expect(!navd.stderr.contains("migrated"), "a migrated file is not migrated again")
        #expect(navd.stop() == 0)
    }
}
