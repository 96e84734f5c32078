// Snapshot format versions 2 and 3, binary, still read (version 4, written today, is in SnapshotWriter.swift):
//
//   magic "NVDS" (4 bytes), varint version (3), varint revision, varint next id,
//   varint stack count, then per stack: varint screen count, then per screen: string id, string route, params,
//   the current tree, varint undo count + trees (newest first), varint redo count + trees (newest first),
//   varint history count, then per entry (newest first): varint revision, string cause, zigzag time,
//   then the facts (params).
//
//   A tree: bool tabbed, varint selected, varint tab count, then per tab: string name, string id,
//   varint layer count, then per layer: style byte (0 root, 1 push, 2 sheet, 3 cover), varint stack index;
//   then varint flow instance count and the instances, by first screen id.
//
// Version 2 is the same without the trees' flow instances and the facts. Each distinct stack buffer was
// written in full, so a push or pop on a big stack copied it into every undo step that held it.

extension NavigationState {
    static let snapshotMagic: [UInt8] = Array("NVDS".utf8)

    static func decodeSnapshotDocument(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        var reader = ByteReader(bytes)
        guard reader.expect(snapshotMagic) else { throw .corrupt("not a navd state snapshot (no 'NVDS' magic)") }
        let version = try reader.varint()
        guard version == 2 || version == 3 || version == UInt64(snapshotVersion) else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: snapshotVersion)
        }
        let revision = try reader.varint()
        let nextId = try reader.varint()
        try checkCounters(revision: revision, nextId: nextId)
        if version == UInt64(snapshotVersion) {
            return try SnapshotReader.decode(&reader, revision: revision, nextId: nextId)
        }
        return try decodeVersion3(&reader, revision: revision, nextId: nextId, hasFlows: version == 3)
    }

    /// The rest of a version-2 or version-3 document.
    private static func decodeVersion3(_ reader: inout ByteReader, revision: UInt64, nextId: UInt64, hasFlows: Bool) throws(SnapshotError) -> NavigationState {
        var stacks = try SnapshotStacks(reading: &reader)
        return try readState(&reader, revision: revision, nextId: nextId, facts: hasFlows) { (reader, label) throws(SnapshotError) in
            try stacks.readTree(from: &reader, nextId: nextId, label: label, flows: hasFlows)
        }
    }

    /// What every version ends with: the current tree, varint undo count + trees, varint redo count + trees,
    /// the history, then (but in version 2) the facts; `tree` reads one tree, given the label for its errors.
    static func readState(
        _ reader: inout ByteReader, revision: UInt64, nextId: UInt64, facts hasFacts: Bool,
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
        let facts = hasFacts ? try reader.params() : [:]
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
    /// The style byte of snapshot version 2.
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
