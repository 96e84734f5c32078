import CSQLite

/// One connection to an SQLite database file, used from one thread at a time.
///
/// Errors carry SQLite's extended result code and message (``SQLiteError``). Statements
/// prepared with ``cachedStatement(_:)`` are kept for the connection's life, so a hot path pays
/// for parsing once. ``close()`` (or deinit) finalizes them and closes the file.
public final class Database {
    /// How to open the file: `sqlite3_open_v2`'s flags.
    public struct OpenFlags: OptionSet, Sendable {
        /// The raw `SQLITE_OPEN_*` bits.
        public let rawValue: Int32
        /// Flags with the raw `SQLITE_OPEN_*` bits `rawValue`.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Read only: any write fails with `SQLITE_READONLY`, and nothing (not even a log
        /// checkpoint or a rollback of a hot journal) is written to the file.
        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Read and write.
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file when it is missing (with ``readWrite``).
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// No mutex inside SQLite: the caller uses the connection from one thread at a time.
        public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
    }

    /// The path the connection was opened on.
    public let path: String
    /// The connection; nil once closed.
    private(set) var handle: OpaquePointer?
    /// Statements kept for reuse, by SQL text.
    private var cache: [String: Statement] = [:]

    /// Opens `path` with `flags` (by default read-write, created when missing), with extended
    /// result codes on and a busy timeout of `busyTimeoutMilliseconds`.
    public init(
        path: String, flags: OpenFlags = [.readWrite, .create, .noMutex], busyTimeoutMilliseconds: Int32 = 5_000
    ) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags.rawValue, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError.last(handle, result: result)
            // A failed open still hands back a handle that must be closed.
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        close()
    }

    /// Finalizes every cached statement and closes the connection. Calling it twice is harmless;
    /// later calls on the connection throw `SQLITE_MISUSE`.
    public func close() {
        guard let handle else { return }
        for statement in cache.values { statement.finalize() }
        cache.removeAll()
        self.handle = nil
        // _v2: statements still held elsewhere keep the connection alive until they are freed.
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements separated by `;`), discarding any rows.
    public func exec(_ sql: String) throws(SQLiteError) {
        let handle = try openHandle()
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw SQLiteError.last(handle, result: result) }
    }

    /// A new statement for `sql` (one statement), finalized when it is released.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        let handle = try openHandle()
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw result == SQLITE_OK
                ? SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement in \"\(sql)\"")
                : SQLiteError.last(handle, result: result)
        }
        return Statement(statement, connection: handle)
    }

    /// The statement for `sql`, prepared on first use and kept (reset, bindings cleared) for
    /// every later call with the same text.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Whether a transaction is open (SQLite is out of autocommit mode).
    public var isInsideTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// The rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The connection, or the error every call on a closed one gets.
    func openHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the database \(path) is closed")
        }
        return handle
    }
}
