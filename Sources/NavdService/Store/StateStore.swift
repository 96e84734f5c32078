import SQLite

/// navd's durable state: one snapshot, the route graph it was written under, and a journal of
/// the changes made after it, in an SQLite database (write-ahead log) inside the state directory.
/// Rows that could not be replayed are kept aside in the same file, out of the journal's way.
///
/// Every method is synchronous and meant to be called from the one thread that owns the daemon's
/// state. When `append` returns, the records are committed at the store's ``Durability`` level;
/// when it throws, nothing of the batch was stored and the store can be used again.
public final class StateStore {
    /// The name of the database file inside the state directory.
    public static let fileName = "navd.sqlite3"
    /// The schema version this navd writes and reads (it migrates older ones in place).
    public static let schemaVersion = 4
    /// SQLite's `application_id` header field for navd's files ("navd" in ASCII).
    static let applicationID: Int32 = 0x6E61_7664

    /// The database file's full path.
    public let path: String
    /// The durability level every commit is made at.
    public let durability: Durability
    /// When ``shouldSnapshot`` turns true.
    public let policy: SnapshotPolicy
    /// Whether this connection holds SQLite's lock on the file from its first use until
    /// ``close()`` (see ``init(directory:durability:policy:exclusive:)``).
    public let exclusive: Bool
    /// What opening found and fixed, one sentence each, for the log: looser folders or files
    /// tightened, a file migrated from an older schema.
    public private(set) var notices: [String] = []

    /// The open connection; nil once closed.
    var database: Database?
    /// The graph stored with the snapshot, once read or written (nil inside: none stored); the
    /// outer nil means not known yet. Kept so that an unchanged graph is never written again.
    var graphOnDisk: SavedGraph??

    /// Rows in the journal (all of them have a revision above the snapshot's).
    public internal(set) var journalLength: Int = 0
    /// Payload bytes in the journal.
    public internal(set) var journalBytes: Int = 0
    /// Bytes of the current snapshot's document (0 without a snapshot).
    public internal(set) var snapshotBytes: Int = 0
    /// The current snapshot's revision, if there is a snapshot.
    public internal(set) var snapshotRevision: UInt64?
    /// The revision of the newest kept step stored in a segment (schema 4); nil while the snapshot holds every step.
    public internal(set) var segmentedThrough: UInt64?
    /// How many segments are stored.
    public internal(set) var segmentCount = 0
    /// The bytes of the stored segments' documents.
    public internal(set) var segmentBytes = 0
    /// The most segments a snapshot adds to: each holds the tree its newest step left, so the next snapshot is
    /// written whole (with no segment) when there are this many, which bounds the trees stored more than once.
    public static let maxSegments = 8

    /// Whether the next snapshot should be written whole, folding the segments into it.
    public var snapshotsWhole: Bool { segmentCount >= Self.maxSegments }

    /// True when the journal has grown enough that the caller should write a snapshot (see
    /// ``SnapshotPolicy``); checking it is free.
    public var shouldSnapshot: Bool {
        // What a restart reads instead of the journal: the snapshot and its segments.
        policy.shouldSnapshot(rows: journalLength, journalBytes: journalBytes, snapshotBytes: snapshotBytes + segmentBytes)
    }

    /// Opens the state in `directory` (created with mode 0700 when missing; see
    /// ``StateDirectory``), creating an empty database (mode 0600) on first use and migrating
    /// a file of an older schema in place.
    ///
    /// A file that is not a navd database, is corrupt, or was written by a newer navd is
    /// refused with a ``StoreError`` saying which file and what to do; it is never modified.
    ///
    /// With `exclusive`, for an owner that already keeps every other process away from the
    /// directory (navd's state lock), the connection takes SQLite's lock once and keeps it, and
    /// the log's index lives in this process' memory: a commit then costs no file locking
    /// (`PRAGMA locking_mode = EXCLUSIVE`), and until ``close()`` no other connection can read
    /// or write the file. Commits are as durable either way.
    public init(
        directory: String, durability: Durability, policy: SnapshotPolicy = SnapshotPolicy(), exclusive: Bool = false
    ) throws(StoreError) {
        self.path = directory + "/" + Self.fileName
        self.durability = durability
        self.policy = policy
        self.exclusive = exclusive
        notices = try StateDirectory.prepare(directory)
        try Self.validateExistingFile(at: path)
        try StateDirectory.createPrivateFile(path)
        let (database, migrated) = try openForWriting()
        self.database = database
        if let migrated { notices.append(migrated) }
        try refreshCounters(database)
    }

    deinit {
        close()
    }

    /// Closes the database; later calls throw a ``StoreError`` of kind `closed`. Calling it twice
    /// is harmless.
    public func close() {
        guard let database else { return }
        self.database = nil
        database.close()
    }

    /// The open connection, or the error every call on a closed store gets.
    func openDatabase() throws(StoreError) -> Database {
        guard let database else {
            throw StoreError(.closed, "the navd state file \(path) was already closed (a bug in navd)")
        }
        return database
    }

    /// Row count and payload bytes of the journal.
    static func journalTotals(_ db: Database) throws(SQLiteError) -> (rows: Int, bytes: Int) {
        let totals = try db.cachedStatement("SELECT count(*), coalesce(sum(length(payload)), 0) FROM journal")
            .firstRow { row in (Int(row.int64(at: 0)), Int(row.int64(at: 1))) }
        return totals ?? (0, 0)
    }

    /// How many segments are stored, and the bytes of their documents.
    static func segmentTotals(_ db: Database) throws(SQLiteError) -> (count: Int, bytes: Int) {
        try db.cachedStatement("SELECT count(*), coalesce(sum(length(document)), 0) FROM history_segment")
            .firstRow { row in (Int(row.int64(at: 0)), Int(row.int64(at: 1))) } ?? (0, 0)
    }

    /// Reloads the in-memory counters from the database.
    func refreshCounters(_ db: Database) throws(StoreError) {
        do {
            (journalLength, journalBytes) = try Self.journalTotals(db)
            let snapshot = try db.cachedStatement("SELECT revision, length(document) FROM snapshot WHERE id = 1")
                .firstRow { row in (UInt64(bitPattern: row.int64(at: 0)), Int(row.int64(at: 1))) }
            snapshotRevision = snapshot?.0
            snapshotBytes = snapshot?.1 ?? 0
            segmentedThrough = try db.cachedStatement("SELECT max(newest) FROM history_segment")
                .firstRow { row in row.isNull(at: 0) ? nil : UInt64(bitPattern: row.int64(at: 0)) } ?? nil
            (segmentCount, segmentBytes) = try Self.segmentTotals(db)
        } catch {
            throw readFailure(error)
        }
    }

    /// The error for a read that failed.
    func readFailure(_ error: SQLiteError) -> StoreError {
        StoreError(.readFailed, "cannot read navd state file \(path): \(error); "
            + "move the file away to start with a fresh state, or restore it from a backup")
    }
}
