import Foundation
import GRDB

/// navd's durable state: one snapshot plus a journal of the changes made after it, in an SQLite
/// database (write-ahead log) inside the state directory.
///
/// Every method is synchronous and meant to be called from the one thread that owns the daemon's
/// state. When `append` returns, the records are committed at the store's ``Durability`` level;
/// when it throws, nothing of the batch was stored and the store can be used again.
public final class StateStore {
    /// The name of the database file inside the state directory.
    public static let fileName = "navd.sqlite3"
    /// The schema version this navd writes and reads.
    public static let schemaVersion = 1
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

    /// The open connection; nil once closed.
    var database: DatabaseQueue?

    /// Rows in the journal (all of them have a revision above the snapshot's).
    public private(set) var journalLength: Int = 0
    /// Payload bytes in the journal.
    public private(set) var journalBytes: Int = 0
    /// Bytes of the current snapshot's document (0 without a snapshot).
    public private(set) var snapshotBytes: Int = 0
    /// The current snapshot's revision, if there is a snapshot.
    public private(set) var snapshotRevision: UInt64?

    /// True when the journal has grown enough that the caller should write a snapshot (see
    /// ``SnapshotPolicy``); checking it is free.
    public var shouldSnapshot: Bool {
        policy.shouldSnapshot(rows: journalLength, journalBytes: journalBytes, snapshotBytes: snapshotBytes)
    }

    /// Opens the state in `directory` (created with mode 0700 when missing), creating an empty
    /// database on first use.
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
        self.path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.durability = durability
        self.policy = policy
        self.exclusive = exclusive
        try Self.createDirectory(directory)
        try Self.validateExistingFile(at: path)
        let database = try openForWriting()
        self.database = database
        try refreshCounters(database)
    }

    deinit {
        close()
    }

    /// Everything stored: the snapshot and the journal after it, read in one transaction.
    public func load() throws(StoreError) -> StoreContents {
        let database = try openDatabase()
        do {
            return try database.inDatabase { db in
                var contents = StoreContents(snapshot: nil, journal: [])
                // One read transaction, so the snapshot and the journal come from the same commit.
                try db.cachedStatement(sql: "BEGIN DEFERRED").execute()
                defer { try? db.cachedStatement(sql: "COMMIT").execute() }
                if let row = try Row.fetchOne(db, sql: "SELECT revision, document FROM snapshot WHERE id = 1") {
                    let revision: Int64 = row[0]
                    let document: Data = row[1]
                    contents.snapshot = (UInt64(bitPattern: revision), [UInt8](document))
                }
                let after = Int64(bitPattern: contents.snapshot?.revision ?? 0)
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT revision, payload FROM journal WHERE revision > ? ORDER BY revision",
                    arguments: [after])
                while let row = try rows.next() {
                    let revision: Int64 = row[0]
                    let payload: Data = row[1]
                    contents.journal.append(StoredRecord(revision: UInt64(bitPattern: revision), payload: [UInt8](payload)))
                }
                return contents
            }
        } catch {
            throw StoreError(.readFailed, "cannot read navd state file \(path): \(Self.describe(error)); "
                + "move the file away to start with a fresh state, or restore it from a backup")
        }
    }

    /// Commits `records` (ascending revisions above the snapshot's and the journal's) in one
    /// transaction: a group commit. On failure (disk full, I/O error, a revision already stored)
    /// nothing of the batch is stored, the error carries SQLite's reason, and a later append can
    /// succeed.
    public func append(_ records: [StoredRecord]) throws(StoreError) {
        guard !records.isEmpty else { return }
        let database = try openDatabase()
        var addedBytes = 0
        for record in records {
            guard record.revision <= UInt64(Int64.max) else {
                throw StoreError(.writeFailed, "cannot store revision \(record.revision) in \(path): above 2^63-1")
            }
            addedBytes += record.payload.count
        }
        do {
            try database.inDatabase { db in
                try Self.inImmediateTransaction(db) {
                    try Self.insertJournalRows(db, records)
                }
            }
        } catch {
            throw StoreError(.writeFailed, "cannot save to navd state file \(path): \(Self.describe(error)); "
                + "nothing of this change was saved (free disk space or fix the file system, then retry)")
        }
        journalLength += records.count
        journalBytes += addedBytes
    }

    /// Replaces the snapshot with `document` at `revision` and deletes the journal rows it covers
    /// (revision <= `revision`), in one transaction.
    public func writeSnapshot(revision: UInt64, document: [UInt8]) throws(StoreError) {
        let database = try openDatabase()
        guard revision <= UInt64(Int64.max) else {
            throw StoreError(.writeFailed, "cannot store snapshot revision \(revision) in \(path): above 2^63-1")
        }
        if let current = snapshotRevision, revision < current {
            throw StoreError(.writeFailed, "refusing to replace the snapshot of revision \(current) in \(path) "
                + "with an older one (revision \(revision)); this is a bug in navd")
        }
        var remaining = (rows: 0, bytes: 0)
        do {
            try database.inDatabase { db in
                try Self.inImmediateTransaction(db) {
                    try db.cachedStatement(sql: """
                        INSERT INTO snapshot(id, revision, document) VALUES (1, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, document = excluded.document
                        """).execute(arguments: [Int64(revision), Data(document)])
                    try db.cachedStatement(sql: "DELETE FROM journal WHERE revision <= ?")
                        .execute(arguments: [Int64(revision)])
                    remaining = try Self.journalTotals(db)
                }
            }
        } catch {
            throw StoreError(.writeFailed, "cannot save a snapshot to navd state file \(path): \(Self.describe(error)); "
                + "the previous snapshot and journal are intact (free disk space or fix the file system)")
        }
        snapshotRevision = revision
        snapshotBytes = document.count
        journalLength = remaining.rows
        journalBytes = remaining.bytes
    }

    /// Closes the database; later calls throw a ``StoreError`` of kind `closed`. Calling it twice
    /// is harmless.
    public func close() {
        guard let database else { return }
        self.database = nil
        try? database.close()
    }

    /// The open connection, or the error every call on a closed store gets.
    func openDatabase() throws(StoreError) -> DatabaseQueue {
        guard let database else {
            throw StoreError(.closed, "the navd state file \(path) was already closed (a bug in navd)")
        }
        return database
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` (cached statements, no parsing per
    /// call), rolling back when anything fails so the connection is ready for the next try.
    static func inImmediateTransaction(_ db: Database, _ body: () throws -> Void) throws {
        try step(db, "BEGIN IMMEDIATE")
        do {
            try body()
            try step(db, "COMMIT")
        } catch {
            if db.isInsideTransaction {
                try? db.execute(sql: "ROLLBACK")
            }
            throw error
        }
    }

    /// Row count and payload bytes of the journal.
    static func journalTotals(_ db: Database) throws -> (rows: Int, bytes: Int) {
        let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(payload)), 0) FROM journal")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// Reloads the in-memory counters from the database.
    func refreshCounters(_ database: DatabaseQueue) throws(StoreError) {
        do {
            try database.inDatabase { db in
                (journalLength, journalBytes) = try Self.journalTotals(db)
                if let row = try Row.fetchOne(db, sql: "SELECT revision, length(document) FROM snapshot WHERE id = 1") {
                    snapshotRevision = UInt64(bitPattern: row[0] as Int64)
                    snapshotBytes = row[1]
                } else {
                    snapshotRevision = nil
                    snapshotBytes = 0
                }
            }
        } catch {
            throw StoreError(.readFailed, "cannot read navd state file \(path): \(Self.describe(error)); "
                + "move the file away to start with a fresh state, or restore it from a backup")
        }
    }

    /// SQLite's own words for `error`, without the SQL text or arguments.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "\(error.message ?? "SQLite error") (SQLite code \(error.extendedResultCode.rawValue))"
        }
        return "\(error)"
    }
}
