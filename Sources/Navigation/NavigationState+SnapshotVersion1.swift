/// The version-1 snapshot: one JSON document with every tree in full (read; written only for tests).
extension NavigationState {
    private struct DocumentVersion1: Codable {
        var format: String
        var version: Int
        var revision: UInt64
        var nextId: UInt64
        var tree: Tree
        var undo: [Tree]
        var redo: [Tree]
        var history: [HistoryEntry]
    }

    /// The state as a version-1 JSON document `{"format":"navd-state","version":1,…}`, as earlier builds wrote it.
    func encodedSnapshotVersion1() -> [UInt8] {
        SnapshotCoding.encode(
            DocumentVersion1(
                format: "navd-state", version: 1, revision: revision, nextId: ids.next, tree: tree,
                undo: undo.all, redo: redo.all, history: history.all))
    }

    /// Decodes a version-1 JSON document.
    static func decodeSnapshotVersion1(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        let header = try SnapshotCoding.decode(SnapshotCoding.Header.self, from: bytes)
        guard header.format == "navd-state" else {
            throw .corrupt("not a navd state snapshot (format '\(header.format)')")
        }
        guard header.version == 1 else {
            throw .unsupportedVersion(found: header.version, supported: snapshotVersion)
        }
        let document = try SnapshotCoding.decode(DocumentVersion1.self, from: bytes)
        for (index, tree) in ([document.tree] + document.undo + document.redo).enumerated() {
            if let problem = tree.structuralProblem() {
                throw .corrupt(index == 0 ? "tree: \(problem)" : "an undo/redo tree: \(problem)")
            }
        }
        try checkCounters(revision: document.revision, nextId: document.nextId)
        for tree in [document.tree] + document.undo + document.redo {
            if let highest = tree.highestIdNumber, highest >= document.nextId {
                throw .corrupt("id '#\(highest)' is not below the next id \(document.nextId): ids would be reused")
            }
        }
        var state = NavigationState(tree: document.tree, revision: document.revision, ids: IdCounter(next: document.nextId))
        state.undo = BoundedStack(newestFirst: document.undo)
        state.redo = BoundedStack(newestFirst: document.redo)
        state.history = BoundedStack(newestFirst: document.history)
        return state
    }
}
