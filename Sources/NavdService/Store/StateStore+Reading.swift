import SQLite

/// Reading everything back at start.
extension StateStore {
    /// Everything stored: the snapshot, its graph, the journal after it, and the highest
    /// revision and id counter of every row (aside rows included), read in one transaction so
    /// that all of it comes from the same commit.
    public func load() throws(StoreError) -> StoreContents {
        let db = try openDatabase()
        do {
            let (contents, graph) = try db.transaction(.deferred) { () throws(SQLiteError) -> (StoreContents, SavedGraph?) in
                let snapshot = try db.cachedStatement("SELECT revision, document, next_id FROM snapshot WHERE id = 1")
                    .firstRow { row in
                        (revision: UInt64(bitPattern: row.int64(at: 0)), document: row.bytes(at: 1),
                         nextId: UInt64(bitPattern: row.int64(at: 2)))
                    }
                let rows = try db.cachedStatement(
                    "SELECT revision, next_id, payload FROM journal WHERE revision > ?1 ORDER BY revision")
                try rows.bind(Int64(bitPattern: snapshot?.revision ?? 0), at: 1)
                let journal = try rows.collect { row in
                    StoredRecord(
                        revision: UInt64(bitPattern: row.int64(at: 0)), nextId: UInt64(bitPattern: row.int64(at: 1)),
                        payload: row.bytes(at: 2))
                }
                let segments = try db.cachedStatement("SELECT document FROM history_segment ORDER BY newest DESC")
                    .collect { row in row.bytes(at: 0) }
                let graph = try Self.readGraph(db)
                let highest = try Self.highest(db, "journal")
                let aside = try Self.highest(db, "journal_aside")
                let contents = StoreContents(
                    snapshot: snapshot.map { ($0.revision, $0.document) }, journal: journal,
                    graph: snapshot == nil ? nil : graph,
                    highestRevision: max(snapshot?.revision ?? 0, highest.revision, aside.revision),
                    highestNextId: max(snapshot?.nextId ?? 0, highest.nextId, aside.nextId),
                    asideCount: aside.rows)
                var withSegments = contents
                withSegments.segments = snapshot == nil ? [] : segments
                return (withSegments, graph)
            }
            graphOnDisk = .some(graph)
            return contents
        } catch {
            throw readFailure(error)
        }
    }

    /// The row count and the highest revision and id counter of `table` (0 when empty).
    private static func highest(_ db: Database, _ table: String) throws(SQLiteError) -> (rows: Int, revision: UInt64, nextId: UInt64) {
        let sql = "SELECT count(*), coalesce(max(revision), 0), coalesce(max(next_id), 0) FROM \(table)"
        let row = try db.cachedStatement(sql).firstRow { row in
            (Int(row.int64(at: 0)), UInt64(bitPattern: row.int64(at: 1)), UInt64(bitPattern: row.int64(at: 2)))
        }
        return row ?? (0, 0, 0)
    }
}
