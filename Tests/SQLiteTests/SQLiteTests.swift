import CSQLite
import SQLite
import Testing

/// The SQLite layer on real SQLite, on temporary files.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteTests {
    @Test func bindsRoundTripEveryType() throws {
        try withScratchDatabase("binds") { db, _ in
            try db.exec("CREATE TABLE t (i INTEGER, b BLOB, s TEXT, n)")
            let insert = try db.cachedStatement("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
            let values: [(Int64, [UInt8], String)] = [
                (Int64.min, [], ""), (0, [0], "a"), (Int64.max, Array(0...255), "ünïcødé \u{0}nul and 🧭"),
                (-1, [UInt8](repeating: 0xAB, count: 100_000), String(repeating: "x", count: 5_000)),
            ]
            for (number, bytes, text) in values {
                try insert.bind(number, at: 1)
                try insert.bind(text, at: 3)
                try insert.bindNull(at: 4)
                try bytes.withUnsafeBytes { buffer in
                    try insert.withBlob(buffer, at: 2) { () throws(SQLiteError) in try insert.run() }
                }
            }
            // A copied blob too.
            try insert.bind([1, 2, 3], at: 2)
            try insert.run()
            let rows = try db.collect("SELECT i, b, s, n IS NULL, typeof(b) FROM t ORDER BY rowid") { row in
                (row.int64(at: 0), row.bytes(at: 1), row.text(at: 2), row.int64(at: 3), row.text(at: 4))
            }
            #expect(rows.count == values.count + 1)
            for (row, value) in zip(rows, values) {
                #expect(row.0 == value.0)
                #expect(row.1 == value.1)
                #expect(row.2 == value.2)
                #expect(row.3 == 1)
                #expect(row.4 == "blob", "an empty buffer is an empty blob, not NULL")
            }
            #expect(rows.last?.1 == [1, 2, 3])
        }
    }

    @Test func aBlobBoundWithoutCopyIsUnboundAfterItsBody() throws {
        try withScratchDatabase("unbind") { db, _ in
            try db.exec("CREATE TABLE t (b)")
            let insert = try db.cachedStatement("INSERT INTO t VALUES (?1)")
            try [UInt8]([9, 9]).withUnsafeBytes { buffer in
                try insert.withBlob(buffer, at: 1) { () throws(SQLiteError) in try insert.run() }
            }
            // Run again without binding: SQLite must not read the old buffer.
            try insert.run()
            let kinds = try db.collect("SELECT typeof(b) FROM t ORDER BY rowid") { $0.text(at: 0) }
            #expect(kinds == ["blob", "null"])
        }
    }

    @Test func aConstraintErrorCarriesItsExtendedCodeAndMessage() throws {
        try withScratchDatabase("constraint") { db, _ in
            try db.exec("CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE u (name TEXT UNIQUE)")
            try db.exec("INSERT INTO p VALUES (1); INSERT INTO u VALUES ('a')")
            let primary = #expect(throws: SQLiteError.self) { try db.exec("INSERT INTO p VALUES (1)") }
            #expect(primary?.code == 1555)
            #expect(primary?.primaryCode == SQLITE_CONSTRAINT)
            #expect(primary?.message == "UNIQUE constraint failed: p.id")
            #expect(primary?.description == "UNIQUE constraint failed: p.id (SQLite code 1555)")

            let insert = try db.cachedStatement("INSERT INTO u VALUES (?1)")
            try insert.bind("a", at: 1)
            let unique = #expect(throws: SQLiteError.self) { try insert.run() }
            #expect(unique?.code == 2067)
            #expect(unique?.message == "UNIQUE constraint failed: u.name")
            // The statement is usable again after its failure.
            try insert.bind("b", at: 1)
            try insert.run()
            #expect(try db.firstRow("SELECT count(*) FROM u") { $0.int64(at: 0) } == 2)
        }
    }

    @Test func aFailedTransactionLeavesNothing() throws {
        try withScratchDatabase("rollback") { db, _ in
            try db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            try db.transaction { () throws(SQLiteError) in try db.exec("INSERT INTO t VALUES (1, 'kept')") }
            let error = #expect(throws: SQLiteError.self) {
                try db.transaction { () throws(SQLiteError) in
                    try db.exec("INSERT INTO t VALUES (2, 'gone'); UPDATE t SET v = 'changed' WHERE id = 1")
                    try db.exec("INSERT INTO t VALUES (2, 'clash')")
                }
            }
            #expect(error?.code == 1555)
            #expect(!db.isInsideTransaction)
            let rows = try db.collect("SELECT id, v FROM t") { "\($0.int64(at: 0)) \($0.text(at: 1))" }
            #expect(rows == ["1 kept"])
            // And the connection takes the next transaction.
            let count = try db.transaction(.deferred) { () throws(SQLiteError) in
                try db.firstRow("SELECT count(*) FROM t") { $0.int64(at: 0) }
            }
            #expect(count == 1)
        }
    }

    @Test func aReadOnlyConnectionRefusesWritesWithItsCode() throws {
        try withScratchDatabase("readonly") { db, folder in
            try db.exec("CREATE TABLE t (v); INSERT INTO t VALUES (1)")
            let reader = try Database(path: folder.databaseFile, flags: [.readOnly])
            defer { reader.close() }
            #expect(try reader.firstRow("SELECT v FROM t") { $0.int64(at: 0) } == 1)
            let error = #expect(throws: SQLiteError.self) { try reader.exec("INSERT INTO t VALUES (2)") }
            #expect(error?.code == SQLITE_READONLY)
            #expect(error?.message.contains("readonly") == true)
        }
    }

    @Test func openingAMissingFileReadOnlySaysWhy() {
        let folder = ScratchFolder("missing")
        defer { folder.remove() }
        let error = #expect(throws: SQLiteError.self) { _ = try Database(path: folder.databaseFile, flags: [.readOnly]) }
        #expect(error?.primaryCode == SQLITE_CANTOPEN)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aClosedDatabaseAndItsStatementsRefuseWork() throws {
        let folder = ScratchFolder("closed")
        defer { folder.remove() }
        let db = try Database(path: folder.databaseFile)
        let statement = try db.cachedStatement("SELECT 1")
        db.close()
        db.close()
        #expect((#expect(throws: SQLiteError.self) { try db.exec("SELECT 1") })?.code == SQLITE_MISUSE)
        #expect((#expect(throws: SQLiteError.self) { try statement.step() })?.code == SQLITE_MISUSE)
    }

    @Test func aCachedStatementIsPreparedOnce() throws {
        try withScratchDatabase("cache") { db, _ in
            let first = try db.cachedStatement("SELECT ?1")
            try first.bind(7, at: 1)
            #expect(try first.firstRow { $0.int64(at: 0) } == 7)
            let second = try db.cachedStatement("SELECT ?1")
            #expect(first === second)
            #expect(try second.firstRow { $0.int64(at: 0) } == 7, "binds stay across a reset")
        }
    }

    @Test func badSQLSaysWhereWithItsCode() throws {
        try withScratchDatabase("syntax") { db, _ in
            let error = #expect(throws: SQLiteError.self) { _ = try db.prepare("SELEC 1") }
            #expect(error?.code == SQLITE_ERROR)
            #expect(error?.message.contains("syntax error") == true)
            let range = #expect(throws: SQLiteError.self) { try db.prepare("SELECT ?1").bind(1, at: 2) }
            #expect(range?.code == SQLITE_RANGE)
            #expect(range?.message.contains("parameter 2") == true)
        }
    }
}
