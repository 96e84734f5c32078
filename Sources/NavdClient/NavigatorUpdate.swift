/// What an update sequence (`AsyncNavigator.updates()`) yields: navd's state as it changes, and
/// navd's comings and goings.
///
/// More of navd's signals become more cases here, each named for its signal (a finished flow,
/// for one). An app that only draws screens iterates `AsyncNavigator.states()`, which yields
/// the same `VisibleState` values whatever cases are added.
public enum NavigatorUpdate: Hashable, Sendable {
    /// A state to show, never older than one shown before. Its cause is the method that made the
    /// change (from `StackChanged`), `start` or `restore` when navd (re)started, or `state` when
    /// the sequence fetched it with `GetState`: at the start, after a missed signal (a revision
    /// gap), and when navd came back without its start-up signal.
    case state(StateChange)
    /// navd's `FlowFinished`: a flow instance the change of that revision ended (finished with an output, or
    /// abandoned), after that change's `.state`.
    case flowFinished(FlowFinished)
    /// navd left the bus (exited or crashed), or the followed app went (its route file removed, or
    /// navd answered that it does not serve it); a `.state` follows when it is back.
    case navdGone

    /// The state this update carries, nil for other updates.
    public var state: VisibleState? {
        if case .state(let change) = self { return change.state }
        return nil
    }
}

extension NavigatorUpdate {
    /// The update a follow action yields, nil for the actions the sequence leaves to its consumer
    /// (`newBaseline`, `back`: the `.state` after `.navdGone` says it) and for those its reader carries out.
    init?(_ action: FollowRules.Action) {
        switch action {
        case .show(let change): self = .state(change)
        case .gone: self = .navdGone
        case .flowFinished(let finished): self = .flowFinished(finished)
        case .newBaseline, .back, .fetchState, .wait: return nil
        }
    }
}
