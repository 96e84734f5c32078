// The start state of a recording (docs/devtools.md, "Recordings"): the whole navigator as it was right after a
// kept revision, as a `NavigationState` whose snapshot document a recording carries and a replaying navd
// starts from (`NavigationState.decodeSnapshot`, then `Coordinator(graph:restoring:)`).

extension Coordinator {
    /// The whole state right after kept `revision` (0: the current one): its tree with ids and flows, its
    /// facts, the undo and redo lists it had (empty for a change kept without them), the history steps up to it
    /// with their states and the base (what a later `Revert` goes back to); the id counter is today's, so ids
    /// issued after it stay unique. `RevisionNotKept` as `GetTreeAt`.
    public func recordingStart(at revision: UInt64) throws(NavigationError) -> NavigationState {
        let kept = try keptState(revision)
        var start = NavigationState(tree: kept.state.tree, revision: kept.revision, ids: state.ids)
        start.facts = kept.state.facts
        var history = state.history
        while let newest = history.top?.element, newest.entry.revision > kept.revision { _ = history.pop() }
        start.history = history
        start.base = state.base
        if kept.revision == state.revision {
            start.undo = state.undo
            start.redo = state.redo
        } else if let lists = history.top?.element.lists, history.top?.element.entry.revision == kept.revision {
            start.undo = lists.undo
            start.redo = lists.redo
        }
        return start
    }
}

/// The undo and redo lists right after a kept change: persistent, so keeping them with each step shares every
/// cell with its neighbours and costs O(1) per step.
struct KeptLists: Hashable, Sendable {
    /// Trees before each undoable change, newest first, as they were right after the change.
    var undo: BoundedStack<Tree>
    /// Trees undone, newest first, as they were right after the change.
    var redo: BoundedStack<Tree>
}
