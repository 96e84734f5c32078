// A replay (`navd --from-recording`, docs/devtools.md "Recordings") starts each recorded change at the id counter
// it had. Revisions and later counters only move forward (`skipForward`); the start is the one place where the
// counter goes down: a recording's start state carries the counter of the navd that exported it, which has
// issued ids since.

extension Coordinator {
    /// Sets the id counter to `nextId`, the counter the first recorded change started from, but never to an id
    /// the tree or one of its flows holds (a recording edited by hand cannot make two screens share an id in
    /// the current tree). Not a change: no history entry, no undo step, no signal.
    public mutating func setIdCounterForReplay(_ nextId: UInt64) {
        let held = state.tree.nodes.map(\.id) + state.tree.flows.keys
        let highest = held.compactMap { UInt64($0.dropFirst()) }.max() ?? 0
        state.ids.next = max(nextId, highest + 1)
    }
}
