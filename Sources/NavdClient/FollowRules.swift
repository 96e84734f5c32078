/// The follow rules, written once: what a view that follows one navigator does with each thing it hears.
/// navwatch, `AsyncNavigator.updates()` and any other view (the GTK view's Python twin among them) follow this
/// table; `Follower` drives it with a `NavigatorClient`.
///
/// A pure state machine: an event and the current time in, the actions to take out, in order. It reads no
/// clock and makes no call; the time is monotonic milliseconds, whatever clock the driver keeps.
///
/// Before it hands in `started`, the driver subscribes to the navigator's `StackChanged` and `FlowFinished`,
/// to `NameOwnerChanged` for navd's name and, following an app, to the ObjectManager's `InterfacesAdded` and
/// `InterfacesRemoved`, so that no change can fall between the first state and the first signal.
///
/// | event | actions |
/// | --- | --- |
/// | `started` (subscribed) | `fetchState` |
/// | `stateRead` (the answer to `fetchState`) | `show` it, cause `state`, or the missed signal's cause when the revisions agree |
/// | `stateRead`, revision ≤ the last shown | nothing: a state as new was shown already (a signal overtook the answer); not for the first state, nor the first after `gone` |
/// | `readFailed` (navd is not there, or answers that the app is not) | `gone` (once) |
/// | `stackChanged`, the first state, or the first after `gone` | `show` it, whatever its revision |
/// | `stackChanged`, cause `start`/`restore` | `show` it: navd (re)started, its state is the new baseline whatever its revision (an `--ephemeral` navd starts again at 1) |
/// | `stackChanged`, revision = last + 1 | `show` it |
/// | `stackChanged`, revision ≤ last | nothing (already shown) |
/// | `stackChanged`, revision > last + 1 | `fetchState`: a signal was missed |
/// | `flowFinished` | `flowFinished` (it follows its change's `StackChanged`) |
/// | `propertiesChanged` | nothing: the change's `StackChanged` came first and carries all a view draws |
/// | `navdVanished` (navd's name lost its owner, or the bus went away) | `gone` (once) |
/// | `navdAppeared` (navd's name has a new owner) | `wait(until: now + 500 ms)` for its start-up signal |
/// | `appChanged(.removed)` of the followed app | `gone` (once) |
/// | `appChanged(.added)` of the followed app | `wait(until: now + 500 ms)` for its start-up signal |
/// | `appChanged` of another app, or following the default navigator | nothing |
/// | `tick` | nothing: only the time moves |
///
/// And for every answer:
///
/// | when | then |
/// | --- | --- |
/// | a `show` whose cause and state are those of the last one shown, with no `gone` between | it is left out (nothing changed) |
/// | a `show` of the first state, or the first after `gone` | `newBaseline` before it (re-read what you keep of the navigator: routes, tabs) |
/// | a `show` after `gone`, following an app | `back` before it (the back marker) |
/// | a `show`, or an event that means gone (even when the marker was given already) | ends the wait |
/// | the wait's end has come (any event, `tick` included) | `fetchState`: the start-up signal did not come |
/// | a fetch is needed while one is under way | no second `fetchState`: the answer under way serves |
/// | a wait is in force | `wait(until:)` again: the wait in force is the one the latest answer names, none if it names none |
/// | `fetchState` | comes last: the driver hands in its answer before anything else |
public struct FollowRules: Sendable {
    /// What a follower hears, or learns from a call it made.
    public enum Event: Hashable, Sendable {
        /// The driver has subscribed: the follow begins.
        case started
        /// The followed navigator's `StackChanged`.
        case stackChanged(StateChange)
        /// The followed navigator's `FlowFinished`.
        case flowFinished(FlowFinished)
        /// The followed navigator's `PropertiesChanged`.
        case propertiesChanged
        /// navd's bus name lost its owner (navd exited or crashed), or the bus itself went away.
        case navdVanished
        /// navd's bus name has a new owner (navd started, was activated, or restarted).
        case navdAppeared
        /// An app appeared or went (`InterfacesAdded` / `InterfacesRemoved`), any app.
        case appChanged(AppChange)
        /// The state `GetState` answered, after `fetchState`.
        case stateRead(VisibleState)
        /// `GetState` failed, after `fetchState`: navd is not there, or answers that the app is not.
        case readFailed
        /// Only the time moved (a wait ended, or the driver woke for its own reasons).
        case tick
    }

    /// What the driver does, in the order given.
    public enum Action: Hashable, Sendable {
        /// Call `GetState` and hand in its answer (`stateRead` or `readFailed`) before anything else.
        case fetchState
        /// The next `show` starts afresh: re-read what is kept of the navigator besides its state (routes, tabs).
        case newBaseline
        /// The followed app answers again after `gone`: the back marker; its state follows.
        case back
        /// Show this state, with its cause.
        case show(StateChange)
        /// The followed navigator went (navd left, or the app went): the gone marker.
        case gone
        /// navd's `FlowFinished`, after the state of the change that ended the flow.
        case flowFinished(FlowFinished)
        /// Hand in `tick` at this time unless another event comes first.
        case wait(until: Int64)
    }

    /// How long a new owner of navd's name (or a followed app that appeared) gets to send its start-up signal
    /// before the follower reads the state itself.
    public static let startupSignalWaitMilliseconds: Int64 = 500

    /// The followed app, nil for the default navigator.
    public let app: String?
    /// The last state shown; nil before the first, and after `gone` (then the next state starts afresh).
    private(set) var lastShown: StateChange?
    /// Whether `gone` was the last marker given.
    private(set) var isGone = false
    /// When the wait for a start-up signal ends, if one is in force.
    private(set) var waitEnd: Int64?
    /// Whether a `fetchState` is under way.
    private(set) var isFetching = false
    /// The signal whose revision gap asked for the fetch under way, if one did.
    private var missedSignal: StateChange?

    /// Rules for following `app`'s navigator (nil: the default navigator).
    public init(app: String?) {
        self.app = app
    }

    /// Follows the tables above: the actions for `event`, heard at `now` (monotonic milliseconds).
    public mutating func handle(_ event: Event, now: Int64) -> [Action] {
        var actions: [Action] = []
        var fetch = false
        switch event {
        case .started:
            fetch = true
        case .stateRead(let state):
            isFetching = false
            let cause = missedSignal.flatMap { $0.revision == state.revision ? $0.cause : nil } ?? StateChange.fetchedCause
            missedSignal = nil
            if let lastShown, state.revision <= lastShown.revision { break }
            show(StateChange(cause: cause, state: state), into: &actions)
        case .readFailed:
            isFetching = false
            missedSignal = nil
            markGone(into: &actions)
        case .stackChanged(let change):
            guard let last = lastShown?.revision, !Navigator.isStartupCause(change.cause) else {
                show(change, into: &actions)
                break
            }
            if change.revision == last + 1 {
                show(change, into: &actions)
            } else if change.revision > last + 1 {
                missedSignal = change
                fetch = true
            }
        case .flowFinished(let finished):
            actions.append(.flowFinished(finished))
        case .navdVanished:
            markGone(into: &actions)
        case .navdAppeared:
            waitEnd = now + Self.startupSignalWaitMilliseconds
        case .appChanged(.removed(let name)) where name == app:
            markGone(into: &actions)
        case .appChanged(.added(let name)) where name == app:
            waitEnd = now + Self.startupSignalWaitMilliseconds
        case .appChanged, .propertiesChanged, .tick:
            break
        }
        if let end = waitEnd, now >= end {
            waitEnd = nil
            fetch = true
        }
        if let waitEnd { actions.append(.wait(until: waitEnd)) }
        if fetch, !isFetching {
            isFetching = true
            actions.append(.fetchState)
        }
        return actions
    }

    /// Shows `change` unless it is the one shown last; a first state (or the first after `gone`) starts afresh.
    private mutating func show(_ change: StateChange, into actions: inout [Action]) {
        guard change != lastShown else { return }
        if lastShown == nil { actions.append(.newBaseline) }
        if isGone, app != nil { actions.append(.back) }
        actions.append(.show(change))
        lastShown = change
        isGone = false
        waitEnd = nil
    }

    /// The gone marker, once until a state is shown again.
    private mutating func markGone(into actions: inout [Action]) {
        waitEnd = nil
        guard !isGone else { return }
        isGone = true
        lastShown = nil
        actions.append(.gone)
    }
}
