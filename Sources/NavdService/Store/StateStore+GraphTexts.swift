import SQLite

/// The route graph of each graph generation (`NavigationState.graphGeneration`) that kept changes were
/// answered under, so that Export names the graph of every change across restarts (docs/devtools.md,
/// "Recordings"). A generation's row is written once, when navd first serves it; rows of generations no kept
/// change refers to any more are deleted.
extension StateStore {
    /// Stores `graph` as generation `generation`'s unless that generation is stored already, and deletes the
    /// generations below `oldest`; one transaction.
    public func rememberGraph(_ graph: SavedGraph, generation: UInt64, forgettingBelow oldest: UInt64) throws(StoreError) {
        let db = try openDatabase()
        do {
            try db.transaction(.immediate) { () throws(SQLiteError) in
                let insert = try db.cachedStatement("""
                    INSERT OR IGNORE INTO graph_text(generation, origin, source, limit_overrides) VALUES (?1, ?2, ?3, ?4)
                    """)
                try insert.bind(Int64(bitPattern: generation), at: 1)
                try insert.bind(graph.origin, at: 2)
                try insert.bind(graph.limitOverrides, at: 4)
                try Self.withBytes(graph.source) { bytes throws(SQLiteError) in
                    try insert.withBlob(bytes, at: 3) { () throws(SQLiteError) in try insert.run() }
                }
                let delete = try db.cachedStatement("DELETE FROM graph_text WHERE generation < ?1")
                try delete.bind(Int64(bitPattern: oldest), at: 1)
                try delete.run()
            }
        } catch {
            throw StoreError(.writeFailed, "cannot save the route graph to navd state file \(path): \(error)")
        }
    }

    /// Every stored generation's graph.
    public func graphTexts() throws(StoreError) -> [UInt64: SavedGraph] {
        let db = try openDatabase()
        do {
            let rows = try db.cachedStatement("SELECT generation, origin, source, limit_overrides FROM graph_text").collect { row in
                (UInt64(bitPattern: row.int64(at: 0)),
                 SavedGraph(origin: row.text(at: 1), source: row.bytes(at: 2), limitOverrides: row.text(at: 3)))
            }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        } catch {
            throw readFailure(error)
        }
    }
}
