// The kept steps stored as immutable segments beside the snapshot's head, so that a snapshot writes only the steps
// made since the one before (docs/durability.md#incremental-snapshots).
//
// A segment is an ordinary version-7 document (SnapshotWriter.swift) holding the newest N kept steps of the state
// it was made from, with the base when N is every step. Skipped steps are never seen by the writer or the reader,
// so the deltas of revisions, times and facts, which start from the document's own revision and facts, agree.

extension NavigationState {
    /// The kept steps newer than `revision` (every step when nil) as a segment document, with the base when that is
    /// every step; nil when there is no such step.
    func encodedSegment(newerThan revision: UInt64?, limit: Int = .max) -> [UInt8]? {
        var count = 0
        history.walk(min(limit, history.count)) { _, step in
            guard revision.map({ step.entry.revision > $0 }) ?? true else { return false }
            count += 1
            return true
        }
        guard count > 0 else { return nil }
        // The undo and redo lists belong to the head; the current tree stays (the document needs one, and the
        // newest step shares it).
        var steps = self
        steps.undo = BoundedStack()
        steps.redo = BoundedStack()
        return SnapshotWriter.document(steps, historyLimit: count)
    }

    /// The document of the state without its kept steps (the head the segments go below).
    func encodedHead() -> [UInt8] {
        SnapshotWriter.document(self, historyLimit: 0)
    }

    /// The revision of the oldest step a merge of the `keep` newest needs: the one right before them, whose state is
    /// the base (held as a step, or as the base once memory trimmed it); nil when memory holds no step. Segments
    /// whose steps are all older are no longer needed.
    func baseStepRevision(keep: Int) -> UInt64? {
        var oldest: UInt64?
        history.walk(max(0, keep) + 1) { _, step in
            oldest = step.entry.revision
            return true
        }
        guard let oldest else { return nil }
        return history.count > max(0, keep) ? oldest : oldest - 1
    }

    /// `head` with the steps of `segments` (decoded segment documents, newest first) below its own, at most `keep`
    /// steps in all: when older ones are left out, the newest of them becomes the base, as a trim makes it; else the
    /// oldest segment's base is the base. A segment's steps that are not older than those above it are skipped.
    static func merging(head: NavigationState, segments: [NavigationState], keep: Int) -> NavigationState {
        var steps = head.history.newest(head.history.count)
        var base = segments.isEmpty ? head.base : nil
        var baseExport = segments.isEmpty ? head.baseExport : nil
        for segment in segments {
            let oldest = steps.last?.entry.revision
            let older = segment.history.newest(segment.history.count).filter { oldest == nil || $0.entry.revision < oldest! }
            guard let newest = older.first else { continue }
            // Steps trimmed away before a snapshot wrote them leave a gap: what lies below it is not the history
            // of the steps above, so it is not used (the base then comes from the segment above the gap).
            if let oldest, newest.entry.revision != oldest - 1 { break }
            steps += older
            base = segment.base
            baseExport = segment.baseExport
        }
        var merged = head
        if steps.count > max(0, keep) {
            let dropped = steps[max(0, keep)]
            // The lists right after the dropped step, made from the oldest segment's base through the steps.
            let older = Array(steps[max(0, keep)...].reversed())
            let lists = lists(after: older, from: baseExport?.lists.pair, before: base.map { .tree($0.state.tree) }).last ?? nil
            base = dropped.after.map { KeptRevision(revision: dropped.entry.revision, state: $0.state) }
            baseExport = dropped.export.flatMap { export in
                lists.map { KeptForExport(nextId: export.nextId, graph: export.graph, lists: .lists($0)) }
            }
            steps.removeSubrange(max(0, keep)...)
        }
        merged.history = BoundedStack(newestFirst: steps)
        merged.base = base
        merged.baseExport = base == nil ? nil : baseExport
        return merged
    }
}

/// One snapshot written incrementally: the head (the state without its kept steps) and the segment of the steps
/// made since the last one, with the revisions the store keys and prunes segments by.
public struct IncrementalSnapshot: Sendable {
    /// `NavigationState.encodedHead()`.
    public var head: [UInt8]
    /// The steps newer than the last segment, nil when there are none.
    public var segment: [UInt8]?
    /// The revision of the segment's newest step (the state's revision).
    public var newest: UInt64
    /// Segments whose newest step is older than this are no longer needed (nil: keep every one).
    public var keepFrom: UInt64?
    /// True when `head` is the whole document (`encodedSnapshot()`), every kept step in it: the stored segments go.
    public var whole = false
}

extension Coordinator {
    /// Keeps the undo and redo lists as they are now for the next snapshot's writer, which then folds the kept
    /// steps' lists from them instead of from the base (Model/KeptLists.swift): the service calls it when it copies
    /// the state for a snapshot, whose segment ends at the current revision.
    public mutating func markListsForSnapshot() {
        state.listsMark = ListsMark(revision: state.revision, undo: state.undo, redo: state.redo)
    }

    /// The state as a head and the segment of the steps newer than `segmentedThrough` (every kept step when nil),
    /// at most `max-history` + 1 of them, as `encodedSnapshot()` keeps; with `whole`, the whole document instead.
    public func encodedIncrementally(segmentedThrough: UInt64?, whole: Bool = false) -> IncrementalSnapshot {
        if whole { return IncrementalSnapshot(head: encodedSnapshot(), segment: nil, newest: state.revision, keepFrom: nil, whole: true) }
        let keep = max(0, graph.limits.maxHistory) + 1
        return IncrementalSnapshot(
            head: state.encodedHead(), segment: state.encodedSegment(newerThan: segmentedThrough, limit: keep),
            newest: state.revision, keepFrom: state.baseStepRevision(keep: keep))
    }
}
