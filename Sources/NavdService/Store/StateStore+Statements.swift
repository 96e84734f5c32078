import GRDB
import GRDBSQLite

/// The append path in SQLite's own API: GRDB prepares and caches the statements, and the loop
/// binds and steps them directly, so a commit costs SQLite's work and the write, nothing more
/// (no argument arrays, no `Data` copies, no per-statement bookkeeping).
extension StateStore {
    /// Steps a cached statement without arguments (BEGIN, COMMIT) and resets it.
    static func step(_ db: Database, _ sql: String) throws {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw lastError(db, code) }
    }

    /// Inserts `records` into the journal with the cached insert statement; the caller holds
    /// the transaction.
    static func insertJournalRows(_ db: Database, _ records: [StoredRecord]) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO journal(revision, payload) VALUES (?, ?)").sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for record in records {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64(record.revision))
            // The buffer only has to live until the step: SQLite copies it into the row.
            guard let length = Int32(exactly: record.payload.count) else {
                throw DatabaseError(
                    resultCode: .SQLITE_TOOBIG,
                    message: "the change of revision \(record.revision) encodes to \(record.payload.count) bytes, more than SQLite can bind")
            }
            let code = record.payload.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, 2, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), length, nil)
                return sqlite3_step(statement)
            }
            guard code == SQLITE_DONE else { throw lastError(db, code) }
        }
    }

    /// The connection's last error as a GRDB error carrying SQLite's message.
    static func lastError(_ db: Database, _ code: Int32) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }
}
