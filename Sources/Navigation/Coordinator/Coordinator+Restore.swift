// Start-up: "replay first, repair after" (`docs/durability.md#edits-while-navd-is-down`). The saved state is first rebuilt exactly as it was
// answered, under the route graph it was written under, and only then fitted to today's graph by the repair
// rules of a reload. Replaying under today's graph instead would stop at the first answered change the edit
// no longer allows, and lose it and everything after it.

/// One journal row as the store returns it: the revision it is stored under and the record's bytes.
public struct JournalRow: Hashable, Sendable {
    /// The revision the store keeps the row under.
    public var revision: UInt64
    /// `JournalRecord.encoded()`'s output, or whatever damage left of it.
    public var payload: [UInt8]

    /// A row of `payload` stored under `revision`.
    public init(revision: UInt64, payload: [UInt8]) {
        self.revision = revision
        self.payload = payload
    }
}

/// Everything start-up read from the state file.
public struct RestoreInput: Sendable {
    /// The snapshot (`NavigationState.encodedSnapshot()`), or nil when none was written: the replay then starts
    /// from a fresh tree of the saved graph.
    public var snapshot: [UInt8]?
    /// The journal rows after the snapshot, in ascending order of revision.
    public var journal: [JournalRow]
    /// The greatest revision the store holds anywhere (snapshot, journal, rows set aside), 0 if unknown:
    /// no revision at or below it is answered again.
    public var highestRevision: UInt64
    /// The greatest id counter stored with any change (the number the next id would carry), 0 if unknown:
    /// no id below it is issued again.
    public var highestNextId: UInt64
    /// The kept steps stored apart from the snapshot, as segment documents, newest first
    /// (`NavigationState.encodedSegment`): they go below the snapshot's own steps.
    public var segments: [[UInt8]]

    /// The stored state; `highestRevision` and `highestNextId` cover rows that may not replay.
    public init(
        snapshot: [UInt8]?, journal: [JournalRow], highestRevision: UInt64 = 0, highestNextId: UInt64 = 0, segments: [[UInt8]] = []
    ) {
        self.snapshot = snapshot
        self.journal = journal
        self.highestRevision = highestRevision
        self.highestNextId = highestNextId
        self.segments = segments
    }
}

/// Where a replay stopped, and why: that row and the rows after it are to be set aside.
public struct ReplayStop: Hashable, Sendable {
    /// The revision of the first row that was not replayed.
    public var revision: UInt64
    /// Why it could not be read or replayed.
    public var reason: String
}

/// What `Coordinator.restore` rebuilt.
public struct Restored: Sendable {
    /// The coordinator to serve: under the current graph, at a revision past everything ever answered.
    public var coordinator: Coordinator
    /// Journal rows replayed.
    public var replayed: Int
    /// The revision the replay reached: the last change restored as it was answered.
    public var replayedRevision: UInt64
    /// The row the replay stopped at (nil when every row replayed).
    public var stopped: ReplayStop?
    /// The fit to the current graph: its `change` is the one "reconcile" revision (nil when nothing had to
    /// change), its `warnings` say what each repair did.
    public var reconciliation: Reconciliation
    /// Every sentence to log as a warning, in order: the revision and id jump past rows not replayed, then
    /// each repair.
    public var warnings: [String]
}

extension Coordinator {
    /// Rebuilds the saved state and fits it to `currentGraph`, at `time` (µs, the repair's time).
    ///
    /// The snapshot is decoded and every journal row replayed in order under `savedGraph`, the graph (route file
    /// and command-line limits) they were written under, so that the result equals the state as it was
    /// answered. A row that cannot be decoded, is stored under another revision than its record's, or does not
    /// replay stops the replay at the last good row (`stopped`). The revision and the id counter then move past
    /// everything the store ever held (see `skipForward`), so that nothing answered or issued before is
    /// answered or issued again. Last, the state is fitted to `currentGraph` by the rules of
    /// `reload(_:at:)`: one "reconcile" revision when anything had to change, none otherwise (always the case
    /// when the graphs are equal and the state was made under them). For a state saved without its graph, pass
    /// the current graph as both.
    ///
    /// Throws only when the snapshot cannot be decoded, or when the store's counters are out of range: the
    /// state file is then left to the user.
    public static func restore(
        _ input: RestoreInput, savedGraph: RouteGraph, currentGraph: RouteGraph, at time: Int64
    ) throws(SnapshotError) -> Restored {
        var coordinator = Coordinator(graph: savedGraph)
        if let snapshot = input.snapshot {
            // The segments repeat screens of the head (each holds the tree its newest step left): decoded together,
            // memory holds each once.
            var pool: [String: Screen]? = input.segments.isEmpty ? nil : [:]
            var state = try NavigationState.decodeSnapshot(snapshot, sharing: &pool)
            if !input.segments.isEmpty {
                var segments: [NavigationState] = []
                for segment in input.segments { segments.append(try NavigationState.decodeSnapshot(segment, sharing: &pool)) }
                state = NavigationState.merging(head: state, segments: segments, keep: max(0, savedGraph.limits.maxHistory) + 1)
            }
            coordinator = Coordinator(graph: savedGraph, restoring: state)
        }
        var replayed = 0
        var stopped: ReplayStop?
        for row in input.journal {
            if let problem = coordinator.replayProblem(row) {
                stopped = ReplayStop(revision: row.revision, reason: problem)
                break
            }
            replayed += 1
        }
        let replayedRevision = coordinator.revision
        let highestRevision = max(input.highestRevision, input.journal.last?.revision ?? 0)
        try NavigationState.checkCounters(revision: max(highestRevision, 1), nextId: max(input.highestNextId, 1))
        var warnings: [String] = []
        let nextIdBefore = coordinator.state.nextIdNumber
        if coordinator.skipForward(pastRevision: highestRevision, nextId: input.highestNextId) {
            var sentence = "revisions \(replayedRevision + 1)…\(highestRevision) were answered but not replayed; the state goes on from revision \(coordinator.revision)"
            if coordinator.state.nextIdNumber != nextIdBefore { sentence += ", ids from #\(coordinator.state.nextIdNumber)" }
            warnings.append(sentence)
        }
        let reconciliation = coordinator.reload(currentGraph, at: time)
        warnings += reconciliation.warnings
        return Restored(
            coordinator: coordinator, replayed: replayed, replayedRevision: replayedRevision, stopped: stopped,
            reconciliation: reconciliation, warnings: warnings)
    }

    /// Replays `row`; nil when it replayed, else why not (and the coordinator is unchanged).
    mutating func replayProblem(_ row: JournalRow) -> String? {
        do {
            let record = try JournalRecord.decode(row.payload)
            guard record.entry.revision == row.revision else {
                return "the row stored as revision \(row.revision) holds the record of revision \(record.entry.revision)"
            }
            _ = try replay(record)
            return nil
        } catch let error as NavigationError {
            return "\(error.name): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    /// Moves the revision up to `pastRevision` and the id counter up to `nextId` (neither ever goes down), so
    /// that the next change is numbered after every revision answered before and issues no id issued before,
    /// even those of changes that were answered but could not be replayed. Not a change: no history entry, no
    /// undo step, no signal; a watcher sees the revision gap on the next change and re-reads the state, which
    /// the contract allows. Returns whether anything moved.
    @discardableResult
    public mutating func skipForward(pastRevision: UInt64, nextId: UInt64) -> Bool {
        let moved = pastRevision > state.revision || nextId > state.ids.next
        state.revision = max(state.revision, pastRevision)
        state.ids.next = max(state.ids.next, nextId)
        return moved
    }
}
