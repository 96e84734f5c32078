// The snapshot document's frame (the format itself is in SnapshotWriter.swift): magic "NVDS", the version,
// revision and next id, then SnapshotReader reads the tables and `readState` what follows them. Only
// version 4 is read: versions 2 and 3 were written by development builds before 0.1.0, the first package.

extension NavigationState {
    static let snapshotMagic: [UInt8] = Array("NVDS".utf8)

    static func decodeSnapshotDocument(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        var reader = ByteReader(bytes)
        guard reader.expect(snapshotMagic) else { throw .corrupt("not a navd state snapshot (no 'NVDS' magic)") }
        let version = try reader.varint()
        guard version == UInt64(snapshotVersion) else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: snapshotVersion)
        }
        let revision = try reader.varint()
        let nextId = try reader.varint()
        try checkCounters(revision: revision, nextId: nextId)
        return try SnapshotReader.decode(&reader, revision: revision, nextId: nextId)
    }

    /// What the document ends with: the current tree, varint undo count + trees, varint redo count + trees,
    /// the history, then the facts; `tree` reads one tree, given the label for its errors.
    static func readState(
        _ reader: inout ByteReader, revision: UInt64, nextId: UInt64,
        tree: (inout ByteReader, String) throws(SnapshotError) -> Tree
    ) throws(SnapshotError) -> NavigationState {
        let current = try tree(&reader, "tree")
        var undoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { undoTrees.append(try tree(&reader, "an undo/redo tree")) }
        var redoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { redoTrees.append(try tree(&reader, "an undo/redo tree")) }
        var entries: [HistoryEntry] = []
        for _ in 0..<(try reader.count()) {
            entries.append(HistoryEntry(revision: try reader.varint(), cause: try reader.string(), time: try reader.signed()))
        }
        let facts = try reader.params()
        guard reader.isAtEnd else { throw reader.corrupt("unexpected bytes after the snapshot") }
        var state = NavigationState(tree: current, revision: revision, ids: IdCounter(next: nextId))
        state.facts = facts
        state.undo = BoundedStack(newestFirst: undoTrees)
        state.redo = BoundedStack(newestFirst: redoTrees)
        state.history = BoundedStack(newestFirst: entries)
        return state
    }
}

extension Presentation {
    /// The style byte of a layer in a snapshot.
    var code: UInt8 {
        switch self {
        case .root: 0
        case .push: 1
        case .sheet: 2
        case .cover: 3
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .root
        case 1: self = .push
        case 2: self = .sheet
        case 3: self = .cover
        default: return nil
        }
    }
}
