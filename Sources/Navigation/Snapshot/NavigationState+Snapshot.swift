/// The snapshot's stored form: binary (see `SnapshotWriter.swift`); each distinct screen, stack, tab and tree is
/// stored once and stacks share their common bottoms, so undo, redo and history steps cost only what they change.
extension NavigationState {
    /// The version of the snapshot format `encodedSnapshot()` writes.
    public static let snapshotVersion = 7

    /// The whole state as a versioned binary document (magic "NVDS", then the version): a function of the state's
    /// value, whose size grows with the live tree plus what the kept steps changed.
    public func encodedSnapshot() -> [UInt8] {
        SnapshotWriter.document(self)
    }

    /// `encodedSnapshot()` with only the `historyLimit` newest history steps (and no base when some are left out).
    func encodedSnapshot(historyLimit: Int) -> [UInt8] {
        SnapshotWriter.document(self, historyLimit: historyLimit)
    }

    /// Decodes `encodedSnapshot()`'s output; another version (the JSON version 1 included) or a damaged document is a `SnapshotError`. What the
    /// document shares (screens, stacks, tabs, trees) is shared again in memory.
    public static func decodeSnapshot(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        var unshared: [String: Screen]?
        return try decodeSnapshot(bytes, sharing: &unshared)
    }

    /// `decodeSnapshot(_:)`, whose screens equal to one in `pool` (a dictionary by id, nil for none) are that one,
    /// so that documents decoded together (a head and its segments) hold each screen once; its new screens join it.
    static func decodeSnapshot(_ bytes: [UInt8], sharing pool: inout [String: Screen]?) throws(SnapshotError) -> NavigationState {
        if JSONDocument.isDocument(bytes, format: "navd-state") {
            throw .unsupportedVersion(found: JSONDocument.version, supported: snapshotVersion)
        }
        return try decodeSnapshotDocument(bytes, pool: &pool)
    }

    /// Checks the counters of a decoded snapshot.
    static func checkCounters(revision: UInt64, nextId: UInt64) throws(SnapshotError) {
        guard revision >= 1, revision < UInt64.max / 2 else {
            throw .corrupt("revision \(revision) is out of range")
        }
        guard nextId >= 1, nextId < UInt64.max / 2 else {
            throw .corrupt("next id \(nextId) is out of range")
        }
    }
}

extension Tree {
    /// The largest N among ids of the form "#N", if any.
    var highestIdNumber: UInt64? {
        var highest: UInt64?
        func note(_ id: String) {
            guard id.hasPrefix("#"), let number = UInt64(id.dropFirst()) else { return }
            highest = max(highest ?? 0, number)
        }
        for tab in tabs {
            note(tab.id)
            for frame in tab.layers { for screen in frame.screens { note(screen.id) } }
        }
        return highest
    }

    /// What makes this tree unusable (empty stacks, misplaced styles, a bad selection), or nil.
    func structuralProblem() -> String? {
        guard !tabs.isEmpty else { return "no tab or stack" }
        guard tabs.indices.contains(selected) else { return "selected tab \(selected) does not exist" }
        if !isTabbed && tabs.count != 1 { return "an untabbed tree holds \(tabs.count) stacks" }
        var seen: Set<String> = []
        for tab in tabs {
            if isTabbed && (tab.name.isEmpty || tab.id.isEmpty) { return "a tab without name or id" }
            if isTabbed && !seen.insert(tab.id).inserted { return "id '\(tab.id)' used twice" }
            guard !tab.layers.isEmpty else { return "tab '\(tab.name)' has no stack" }
            for (index, frame) in tab.layers.enumerated() {
                guard !frame.screens.isEmpty else { return "an empty stack in tab '\(tab.name)'" }
                if (index == 0) != (frame.style == .root) || frame.style == .push {
                    return "stack \(index) of tab '\(tab.name)' has style '\(frame.style.rawValue)'"
                }
                for screen in frame.screens where screen.id.isEmpty || !seen.insert(screen.id).inserted {
                    return "screen id '\(screen.id)' is empty or used twice"
                }
            }
        }
        return nil
    }
}

extension Coordinator {
    /// The state's snapshot with the history steps it keeps and no more: those `History` lists and the one before
    /// them, whose state is the base (docs/devtools.md). The model holds up to twice as many between trims;
    /// what it holds beyond them is never read, so it is not stored.
    public func encodedSnapshot() -> [UInt8] {
        state.encodedSnapshot(historyLimit: max(0, graph.limits.maxHistory) + 1)
    }
}
