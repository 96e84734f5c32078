import SQLite

#if canImport(Glibc)
import Glibc
#endif

/// The writes: journal rows (the hot path), snapshots with their graph, rows set aside.
extension StateStore {
    /// The journal's insert, prepared once per connection.
    static let insertJournalRow = "INSERT INTO journal(revision, payload, next_id) VALUES (?1, ?2, ?3)"

    /// Commits `records` (ascending revisions above the snapshot's and the journal's) in one
    /// transaction: a group commit. On failure (disk full, I/O error, a revision already stored)
    /// nothing of the batch is stored, the error carries SQLite's reason, and a later append can
    /// succeed.
    public func append(_ records: [StoredRecord]) throws(StoreError) {
        guard !records.isEmpty else { return }
        let db = try openDatabase()
        var addedBytes = 0
        for record in records {
            guard record.revision <= UInt64(Int64.max), record.nextId <= UInt64(Int64.max) else {
                throw StoreError(.writeFailed, "cannot store revision \(record.revision) (next id \(record.nextId)) "
                    + "in \(path): above 2^63-1")
            }
            addedBytes += record.payload.count
        }
        do {
            try db.transaction(.immediate) { () throws(SQLiteError) in
                let insert = try db.cachedStatement(Self.insertJournalRow)
                for record in records {
                    try insert.bind(Int64(record.revision), at: 1)
                    try insert.bind(Int64(record.nextId), at: 3)
                    // No copy: SQLite reads the payload once, into the row, during the step.
                    try Self.withBytes(record.payload) { bytes throws(SQLiteError) in
                        try insert.withBlob(bytes, at: 2) { () throws(SQLiteError) in try insert.run() }
                    }
                }
            }
        } catch {
            throw StoreError(.writeFailed, "cannot save to navd state file \(path): \(error); "
                + "nothing of this change was saved (free disk space or fix the file system, then retry)")
        }
        journalLength += records.count
        journalBytes += addedBytes
    }

    /// Replaces the snapshot with `document` at `revision` (the navigator's id counter then
    /// being `nextId`), written under `graph`, and deletes the journal rows it covers
    /// (revision <= `revision`), in one transaction.
    ///
    /// `graph`'s bytes are written only when they differ from the stored graph's, so frequent
    /// snapshots under one route file cost no more than the document. Every journal row
    /// appended after this snapshot must be made under `graph` (a caller that changes graph
    /// writes a snapshot first). nil means the graph is not known: the stored one is removed, so
    /// that no row is ever thought to be made under a graph it was not made under.
    public func writeSnapshot(
        revision: UInt64, nextId: UInt64, document: [UInt8], graph: SavedGraph?, segment: SegmentWrite = .none
    ) throws(StoreError) {
        let db = try openDatabase()
        guard revision <= UInt64(Int64.max), nextId <= UInt64(Int64.max) else {
            throw StoreError(.writeFailed, "cannot store snapshot revision \(revision) (next id \(nextId)) in \(path): above 2^63-1")
        }
        if let current = snapshotRevision, revision < current {
            throw StoreError(.writeFailed, "refusing to replace the snapshot of revision \(current) in \(path) "
                + "with an older one (revision \(revision)); this is a bug in navd")
        }
        var remaining = (rows: 0, bytes: 0)
        var segments = (count: 0, bytes: 0)
        do {
            try db.transaction(.immediate) { () throws(SQLiteError) in
                // What the new snapshot replaces is deleted first: the pages of the old snapshot and of the rows
                // it covers go to the free list, and the new document is written into them, so the file grows
                // only by what the new snapshot has beyond them (else it would hold both snapshots at once).
                remaining = try Self.deleteJournalRows(db, "revision <= ?1", revision)
                try db.cachedStatement("DELETE FROM snapshot WHERE id = 1").run()
                // So are the segments it replaces (all of them for a whole document), for the same reason.
                try Self.prune(segment, db)
                let upsert = try db.cachedStatement("""
                    INSERT INTO snapshot(id, revision, document, next_id) VALUES (1, ?1, ?2, ?3)
                    ON CONFLICT(id) DO UPDATE SET
                        revision = excluded.revision, document = excluded.document, next_id = excluded.next_id
                    """)
                try upsert.bind(Int64(revision), at: 1)
                try upsert.bind(Int64(nextId), at: 3)
                try Self.withBytes(document) { bytes throws(SQLiteError) in
                    try upsert.withBlob(bytes, at: 2) { () throws(SQLiteError) in try upsert.run() }
                }
                try replaceGraph(db, with: graph)
                try Self.add(segment, db)
                segments = try Self.segmentTotals(db)
            }
        } catch {
            throw StoreError(.writeFailed, "cannot save a snapshot to navd state file \(path): \(error); "
                + "the previous snapshot and journal are intact (free disk space or fix the file system)")
        }
        if case .none = segment {
            // A whole document replaced the segments, and often a journal as large as them: their pages go back to
            // the file system instead of waiting for rows to reuse them (a file made before schema 4 keeps them).
            _ = try? db.exec("PRAGMA incremental_vacuum")
        }
        if document.count > Self.logSizeLimit {
            // The log now holds the whole document; it would stay that long until the next commit after a
            // checkpoint. Cut it back now (the checkpoint that follows a commit of that size has copied it).
            _ = try? db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        graphOnDisk = .some(graph)
        snapshotRevision = revision
        switch segment {
        case .none: segmentedThrough = nil
        case .add(let newest, let document, _): if document != nil { segmentedThrough = newest }
        }
        snapshotBytes = document.count
        (segmentCount, segmentBytes) = segments
        (journalLength, journalBytes) = remaining
    }

    /// How a snapshot treats the kept steps stored apart from it.
    public enum SegmentWrite: Sendable {
        /// The document holds every kept step: the stored segments go.
        case none
        /// The document holds none: `document` (nil: no new step) is stored as the segment whose newest step is
        /// `newest`, and the segments whose steps are all older than `keepFrom` go.
        case add(newest: UInt64, document: [UInt8]?, keepFrom: UInt64?)
    }

    /// Deletes the segments `segment` replaces: every one for a whole document, else those whose steps are all older
    /// than its `keepFrom`; the caller holds the transaction.
    private static func prune(_ segment: SegmentWrite, _ db: Database) throws(SQLiteError) {
        switch segment {
        case .none:
            try db.cachedStatement("DELETE FROM history_segment").run()
        case .add(_, _, let keepFrom?):
            let prune = try db.cachedStatement("DELETE FROM history_segment WHERE newest < ?1")
            try prune.bind(Int64(bitPattern: keepFrom), at: 1)
            try prune.run()
        case .add(_, _, nil):
            break
        }
    }

    /// Inserts `segment`'s new segment, if it has one; the caller holds the transaction.
    private static func add(_ segment: SegmentWrite, _ db: Database) throws(SQLiteError) {
        guard case .add(let newest, let document?, _) = segment else { return }
        let insert = try db.cachedStatement("INSERT OR REPLACE INTO history_segment(newest, document) VALUES (?1, ?2)")
        try insert.bind(Int64(bitPattern: newest), at: 1)
        try withBytes(document) { bytes throws(SQLiteError) in
            try insert.withBlob(bytes, at: 2) { () throws(SQLiteError) in try insert.run() }
        }
    }

    /// Moves every journal row with a revision of `revision` or more into the rows kept aside,
    /// with `reason` and the time, in one transaction; returns how many it moved. They no
    /// longer block new rows at the same revisions, and they stay in the file (for a person to
    /// look at, and for ``StoreContents/highestRevision``).
    @discardableResult
    public func setAside(fromRevision revision: UInt64, reason: String) throws(StoreError) -> Int {
        let db = try openDatabase()
        guard revision <= UInt64(Int64.max) else { return 0 }
        var moved = 0
        var remaining = (rows: 0, bytes: 0)
        do {
            try db.transaction(.immediate) { () throws(SQLiteError) in
                let copy = try db.cachedStatement("""
                    INSERT INTO journal_aside(revision, next_id, payload, reason, time)
                    SELECT revision, next_id, payload, ?2, ?3 FROM journal WHERE revision >= ?1 ORDER BY revision
                    """)
                try copy.bind(Int64(revision), at: 1)
                try copy.bind(reason, at: 2)
                try copy.bind(Int64(time(nil)), at: 3)
                try copy.run()
                moved = db.changes
                remaining = try Self.deleteJournalRows(db, "revision >= ?1", revision)
            }
        } catch {
            throw StoreError(.writeFailed, "cannot set aside the journal rows from revision \(revision) in navd state "
                + "file \(path): \(error); the journal is as it was (free disk space or fix the file system)")
        }
        (journalLength, journalBytes) = remaining
        return moved
    }

    /// Deletes the journal rows that `condition` picks, `?1` being `revision`, and returns the journal's
    /// row count and payload bytes after it; the caller holds the transaction.
    private static func deleteJournalRows(
        _ db: Database, _ condition: String, _ revision: UInt64
    ) throws(SQLiteError) -> (rows: Int, bytes: Int) {
        let delete = try db.cachedStatement("DELETE FROM journal WHERE " + condition)
        try delete.bind(Int64(revision), at: 1)
        try delete.run()
        return try journalTotals(db)
    }

    /// Makes the stored graph `graph`, writing only when it differs from what is stored; the
    /// caller holds the transaction.
    private func replaceGraph(_ db: Database, with graph: SavedGraph?) throws(SQLiteError) {
        let stored: SavedGraph?
        if let known = graphOnDisk { stored = known } else { stored = try Self.readGraph(db) }
        guard stored != graph else { return }
        guard let graph else {
            try db.cachedStatement("DELETE FROM graph").run()
            return
        }
        let upsert = try db.cachedStatement("""
            INSERT INTO graph(id, origin, source, limit_overrides) VALUES (1, ?1, ?2, ?3)
            ON CONFLICT(id) DO UPDATE SET
                origin = excluded.origin, source = excluded.source, limit_overrides = excluded.limit_overrides
            """)
        try upsert.bind(graph.origin, at: 1)
        try upsert.bind(graph.limitOverrides, at: 3)
        try Self.withBytes(graph.source) { bytes throws(SQLiteError) in
            try upsert.withBlob(bytes, at: 2) { () throws(SQLiteError) in try upsert.run() }
        }
    }

    /// The stored graph, if any.
    static func readGraph(_ db: Database) throws(SQLiteError) -> SavedGraph? {
        try db.cachedStatement("SELECT origin, source, limit_overrides FROM graph WHERE id = 1").firstRow { row in
            SavedGraph(origin: row.text(at: 0), source: row.bytes(at: 1), limitOverrides: row.text(at: 2))
        }
    }

    /// `bytes`' buffer for the length of `body`, without copying, with SQLite's error type.
    static func withBytes<R>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        let result: Result<R, SQLiteError> = bytes.withUnsafeBytes { buffer in
            do throws(SQLiteError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
