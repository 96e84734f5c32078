import CSQLite

/// Transactions: `BEGIN … / COMMIT`, rolled back on any failure.
extension Database {
    /// How a transaction takes its lock.
    public enum TransactionKind: Sendable {
        /// `BEGIN DEFERRED`: a read lock at the first read, a write lock at the first write.
        case deferred
        /// `BEGIN IMMEDIATE`: the write lock at once, so a busy database fails at `BEGIN`
        /// rather than halfway.
        case immediate
        /// `BEGIN EXCLUSIVE`.
        case exclusive

        /// The statement that opens it.
        var sql: String {
            switch self {
            case .deferred: "BEGIN DEFERRED"
            case .immediate: "BEGIN IMMEDIATE"
            case .exclusive: "BEGIN EXCLUSIVE"
            }
        }
    }

    /// Runs `body` in a transaction of `kind` and commits it; when `body` or the commit fails,
    /// rolls back (nothing of `body` stays) and rethrows. The statements are cached, so a
    /// transaction costs no parsing.
    public func transaction<T>(
        _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> T
    ) throws(SQLiteError) -> T {
        try cachedStatement(kind.sql).run()
        do {
            let value = try body()
            try cachedStatement("COMMIT").run()
            return value
        } catch {
            rollBack()
            throw error
        }
    }

    /// Rolls back the open transaction, if any (SQLite may already have rolled it back itself,
    /// after a full disk for one).
    public func rollBack() {
        guard isInsideTransaction else { return }
        try? cachedStatement("ROLLBACK").run()
    }

    /// The rows of `sql` (one statement, prepared for this call only), read by `read`.
    public func collect<T>(_ sql: String, _ read: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        try prepare(sql).collect(read)
    }

    /// The first row of `sql` (one statement, prepared for this call only), read by `read`.
    public func firstRow<T>(_ sql: String, _ read: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        try prepare(sql).firstRow(read)
    }
}
