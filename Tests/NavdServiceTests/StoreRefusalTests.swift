import Foundation
import SQLite
import Testing
@testable import NavdService

/// A state file navd does not understand is refused with a message naming it, and keeps every
/// byte.
@Suite(.timeLimit(.minutes(1)))
struct StoreRefusalTests {
    /// Opens a store on `temporary`'s state directory, expecting a refusal of `kind`, and checks
    /// the file's bytes did not change. Returns the error's message.
    func expectRefusal(_ temporary: StoreTemporaryDirectory, kind: StoreError.Kind) throws -> String {
        let before = try #require(storeFileBytes(temporary.databaseFile))
        let error = #expect(throws: StoreError.self) {
            _ = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        }
        #expect(error?.kind == kind)
        #expect(error?.message.contains(temporary.databaseFile) == true, "the message names the file")
        #expect(storeFileBytes(temporary.databaseFile) == before, "the refused file is unchanged")
        print("refused as expected: \(error?.message ?? "-")")
        return error?.message ?? ""
    }

    /// Writes `contents` as `temporary`'s state file, creating the state directory.
    func writeStateFile(_ temporary: StoreTemporaryDirectory, _ contents: Data) throws {
        try FileManager.default.createDirectory(atPath: temporary.stateDirectory, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: temporary.databaseFile, contents: contents))
    }

    /// Makes `temporary`'s state file an SQLite database built by `sql` (in WAL mode when `wal`),
    /// creating the state directory.
    func writeStateDatabase(_ temporary: StoreTemporaryDirectory, wal: Bool = false, sql: String) throws {
        try FileManager.default.createDirectory(atPath: temporary.stateDirectory, withIntermediateDirectories: true)
        let db = try Database(path: temporary.databaseFile)
        if wal { try db.exec("PRAGMA journal_mode = WAL") }
        try db.exec(sql)
        db.close()
    }

    @Test func randomBytesAreRefusedAndLeftAlone() throws {
        let temporary = try StoreTemporaryDirectory("random")
        defer { temporary.remove() }
        var generator = SystemRandomNumberGenerator()
        try writeStateFile(temporary, Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        let message = try expectRefusal(temporary, kind: .unreadable)
        #expect(message.contains("move it away"))
    }

    @Test func aNavdFileWithCorruptPagesIsRefusedAndLeftAlone() throws {
        let temporary = try StoreTemporaryDirectory("corrupt")
        defer { temporary.remove() }
        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        try store.append(storeRecords(from: 1, count: 400, payloadSize: 200))
        store.close()
        let size = storeFileSize(temporary.databaseFile)
        #expect(size > 8 * 4_096)
        // Scribble over a page in the middle of the journal's b-tree.
        let handle = try #require(FileHandle(forWritingAtPath: temporary.databaseFile))
        try handle.seek(toOffset: UInt64(size / 4_096 / 2 * 4_096))
        try handle.write(contentsOf: Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()
        let message = try expectRefusal(temporary, kind: .unreadable)
        #expect(message.contains("corrupt"))
    }

    @Test func aNewerSchemaIsRefusedAndLeftAlone() throws {
        let temporary = try StoreTemporaryDirectory("newer")
        defer { temporary.remove() }
        // What a future navd might write: navd's application id, schema 5, other tables.
        try writeStateDatabase(temporary, wal: true, sql: """
            PRAGMA application_id = \(StateStore.applicationID);
            CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL) WITHOUT ROWID;
            INSERT INTO meta VALUES ('schema_version', 5);
            CREATE TABLE trees (id INTEGER PRIMARY KEY, body BLOB);
            INSERT INTO trees (body) VALUES (x'0102030405');
            """)
        let message = try expectRefusal(temporary, kind: .newerSchema)
        #expect(message.contains("written by a newer navd (schema 5, this navd reads 4); upgrade navd or move the file away"))
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let temporary = try StoreTemporaryDirectory("foreign")
        defer { temporary.remove() }
        try writeStateDatabase(temporary, sql: "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos (name) VALUES ('cat')")
        let message = try expectRefusal(temporary, kind: .unreadable)
        #expect(message.contains("another program"))
    }

    @Test func aTooShortFileIsRefusedAndLeftAlone() throws {
        let temporary = try StoreTemporaryDirectory("short")
        defer { temporary.remove() }
        try writeStateFile(temporary, Data("SQLite format 3\0".utf8))
        _ = try expectRefusal(temporary, kind: .unreadable)
    }

    @Test func anEmptyFileBecomesAFreshStore() throws {
        let temporary = try StoreTemporaryDirectory("empty")
        defer { temporary.remove() }
        try writeStateFile(temporary, Data())
        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { store.close() }
        try store.append(storeRecords(from: 1, count: 1))
        #expect(try store.load().journal.count == 1)
    }
}
