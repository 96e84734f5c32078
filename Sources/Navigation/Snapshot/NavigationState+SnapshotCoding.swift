// The snapshot document's frame (the format itself is in SnapshotWriter.swift): magic "NVDS", the version,
// revision and next id, then SnapshotReader reads the tables and `readState` what follows them. Versions 7, 6,
// 5 (without the change records) and 4 (0.1.0's, without the kept states either) are read: versions 2 and 3 were written by development builds
// before 0.1.0, the first package.

extension NavigationState {
    static let snapshotMagic: [UInt8] = Array("NVDS".utf8)

    /// `pool`: screens of documents decoded before, shared with this one's equal screens (SnapshotReader).
    static func decodeSnapshotDocument(_ bytes: [UInt8], pool: inout [String: Screen]?) throws(SnapshotError) -> NavigationState {
        var reader = ByteReader(bytes)
        guard reader.expect(snapshotMagic) else { throw .corrupt("not a navd state snapshot (no 'NVDS' magic)") }
        let version = try reader.varint()
        guard (4...UInt64(snapshotVersion)).contains(version) else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: snapshotVersion)
        }
        let revision = try reader.varint()
        let nextId = try reader.varint()
        try checkCounters(revision: revision, nextId: nextId)
        return try SnapshotReader.decode(
            &reader, revision: revision, nextId: nextId, keepsStates: version >= 5, keepsRecords: version >= 6,
            keepsExport: version >= 7, sharesTexts: version >= 7, pool: &pool)
    }

    /// What the document ends with: the current tree, varint undo count + trees, varint redo count + trees, then
    /// (version 5) the facts, the history with its kept states (version 6: and records) and the base, or (version 4) the history and the
    /// facts; `tree`
    /// reads one tree, given the label for its errors, `record` one change record, `entry` one history line. A version-4 document kept no states: only its current
    /// revision is kept, as the newest history step's state when that step made it.
    static func readState(
        _ reader: inout ByteReader, revision: UInt64, nextId: UInt64, keepsStates: Bool, keepsRecords: Bool,
        export: (inout ByteReader) throws(SnapshotError) -> KeptForExport?,
        tree: (inout ByteReader, String) throws(SnapshotError) -> Tree,
        record: (inout ByteReader) throws(SnapshotError) -> ChangeRecord = { reader throws(SnapshotError) in try reader.changeRecord() },
        entry: (inout ByteReader) throws(SnapshotError) -> HistoryEntry = { reader throws(SnapshotError) in try reader.historyEntry() }
    ) throws(SnapshotError) -> NavigationState {
        let current = try tree(&reader, "tree")
        var undoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { undoTrees.append(try tree(&reader, "an undo/redo tree")) }
        var redoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { redoTrees.append(try tree(&reader, "an undo/redo tree")) }
        let currentFacts = keepsStates ? try reader.params() : [:]
        var steps: [KeptChange] = []
        var keptStates: [RevisionState?] = []
        var newerFacts = currentFacts
        func kept() throws(SnapshotError) -> RevisionState? {
            let code = try reader.byte()
            guard code != 0 else { return nil }
            let kept = try tree(&reader, "a kept tree")
            switch code {
            case 1: break
            case 2:
                for (name, value) in try reader.params() { newerFacts[name] = value }
                for _ in 0..<(try reader.count()) { newerFacts[try reader.string()] = nil }
            default: throw reader.corrupt("unknown kept-state code \(code)")
            }
            return RevisionState(tree: kept, facts: newerFacts)
        }
        for _ in 0..<(try reader.count()) {
            let entry = try entry(&reader)
            var step = KeptChange(entry: entry, after: nil)
            keptStates.append(keepsStates ? try kept() : nil)
            if keepsRecords, try reader.bool() { step.record = try record(&reader) }
            step.export = try export(&reader)
            steps.append(step)
        }
        var base: KeptRevision? = nil
        if keepsStates, try reader.bool() {
            let baseRevision = try reader.varint()
            guard let baseState = try kept() else { throw reader.corrupt("the base has no state") }
            base = KeptRevision(revision: baseRevision, state: baseState)
        }
        let facts = keepsStates ? currentFacts : try reader.params()
        var state = NavigationState(tree: current, revision: revision, ids: IdCounter(next: nextId))
        state.facts = facts
        state.undo = BoundedStack(newestFirst: undoTrees)
        state.redo = BoundedStack(newestFirst: redoTrees)
        KeptState.share(keptStates, into: &steps)
        if !keepsStates, !steps.isEmpty, steps[0].entry.revision == revision { steps[0].after = KeptState(state.revisionState) }
        state.history = BoundedStack(newestFirst: steps)
        state.base = base
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
