import Navigation
import RouteFiles

/// Snapshot bytes to a state (`NavigationState.decodeSnapshot`, as start-up and `navd --from-recording` read
/// them). A decoded state encodes and decodes to the same state, and its snapshot is not out of proportion
/// to the input (what the input shares stays shared).
/// The same bytes are also restored as a head with two segments below it (schema 4: a restart merges the
/// segments it reads): the merge of untrusted segments never traps and keeps no more than `max-history` steps.
public func fuzzSnapshot(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    let bytes = Array(data)
    let graph = RouteGraph.demo
    if let restored = try? Coordinator.restore(
        RestoreInput(snapshot: bytes, journal: [], segments: [bytes, bytes]), savedGraph: graph, currentGraph: graph, at: 0)
    {
        let kept = restored.coordinator.history(limit: .max).count
        try require(kept <= max(0, graph.limits.maxHistory), "a head and two segments restore \(kept) kept steps")
    }
    guard let state = try? NavigationState.decodeSnapshot(bytes) else { return }
    try requireSnapshotRoundTrip(state)
    let size = state.encodedSnapshot().count
    try require(size <= 4 * data.count + 256, "a snapshot of \(data.count) bytes decodes to a state whose snapshot takes \(size)")
}

/// A journal record's bytes to a record (`JournalRecord.decode`, as start-up replays the journal). A decoded
/// record encodes and decodes to the same record.
public func fuzzJournal(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let record = try? JournalRecord.decode(Array(data)) else { return }
    let encoded = record.encoded()
    let again: JournalRecord
    do { again = try JournalRecord.decode(encoded) } catch {
        throw PropertyViolation("a record's own bytes do not decode: \(error)")
    }
    try require(again == record, "a record's bytes decode to another record")
    try require(again.encoded() == encoded, "a decoded record encodes to other bytes")
}
