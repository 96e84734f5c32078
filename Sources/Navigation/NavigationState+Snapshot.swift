extension NavigationState {
    /// The version of the snapshot format `encodedSnapshot()` writes.
    public static let snapshotVersion = 1

    private struct Document: Codable {
        var format: String
        var version: Int
        var revision: UInt64
        var nextId: UInt64
        var tree: Tree
        var undo: [Tree]
        var redo: [Tree]
        var history: [HistoryEntry]
    }

    /// The whole state as a versioned JSON document: `{"format":"navd-state","version":1,…}`.
    public func encodedSnapshot() -> [UInt8] {
        SnapshotCoding.encode(
            Document(
                format: "navd-state", version: Self.snapshotVersion, revision: revision, nextId: ids.next, tree: tree,
                undo: undo.all, redo: redo.all, history: history.all))
    }

    /// Decodes `encodedSnapshot()`'s output; another version or a damaged document is a `SnapshotError`.
    public static func decodeSnapshot(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        let header = try SnapshotCoding.decode(SnapshotCoding.Header.self, from: bytes)
        guard header.format == "navd-state" else {
            throw .corrupt("not a navd state snapshot (format '\(header.format)')")
        }
        guard header.version == snapshotVersion else {
            throw .unsupportedVersion(found: header.version, supported: snapshotVersion)
        }
        let document = try SnapshotCoding.decode(Document.self, from: bytes)
        for (index, tree) in ([document.tree] + document.undo + document.redo).enumerated() {
            if let problem = tree.structuralProblem() {
                throw .corrupt(index == 0 ? "tree: \(problem)" : "an undo/redo tree: \(problem)")
            }
        }
        guard document.revision >= 1, document.revision < UInt64.max / 2 else {
            throw .corrupt("revision \(document.revision) is out of range")
        }
        guard document.nextId >= 1, document.nextId < UInt64.max / 2 else {
            throw .corrupt("next id \(document.nextId) is out of range")
        }
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
