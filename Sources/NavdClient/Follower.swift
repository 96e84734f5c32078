import DBus

/// Follows one navigator with a subscribed `NavigatorClient` by `FollowRules`: it hands the rules what the
/// client hears, reads the state when they ask (`fetchState`), keeps the wait they name (`wait(until:)`), and
/// hands every other action (`show`, `gone`, `back`, `newBaseline`, `flowFinished`) to the caller's `perform`.
///
/// navwatch's loop and the async update sequence's thread each drive one; a follower belongs to one thread.
public final class Follower {
    /// The client it reads events and the state with.
    public let client: NavigatorClient
    /// The rules, and where they stand.
    public private(set) var rules: FollowRules
    /// The error of the last state read that failed, nil after one that succeeded.
    public private(set) var lastReadError: NavigatorError?
    /// When the rules' wait ends, as the latest answer named it.
    private var waitEnd: Int64?

    /// A follower of the navigator `client` acts on; call `client.subscribe()` before `start`.
    public init(client: NavigatorClient) {
        self.client = client
        self.rules = FollowRules(app: client.app)
    }

    /// Begins the follow: reads the state and shows it, or marks navd gone. Returns whether navd answered.
    @discardableResult
    public func start(_ perform: (FollowRules.Action) -> Void) -> Bool {
        handle(.started, perform)
        return lastReadError == nil
    }

    /// Waits for the next event — until the rules' wait ends, else at most `idleMilliseconds` (negative: no
    /// limit) — and follows it. Returns the event the client heard: on `.busDisconnected` nothing was followed,
    /// and the caller decides what the bus going away means to it.
    @discardableResult
    public func next(idleMilliseconds: Int32, _ perform: (FollowRules.Action) -> Void) -> NavigatorEvent {
        var wait = idleMilliseconds
        if let waitEnd {
            let left = Int32(clamping: max(0, waitEnd - MonotonicClock.milliseconds()))
            wait = wait < 0 ? left : min(wait, left)
        }
        let event = client.nextEvent(timeoutMilliseconds: wait)
        if let followed = FollowRules.Event(event) { handle(followed, perform) }
        return event
    }

    /// Hands the rules `event` now, and carries out their answer.
    public func handle(_ event: FollowRules.Event, _ perform: (FollowRules.Action) -> Void) {
        waitEnd = nil
        for action in rules.handle(event, now: MonotonicClock.milliseconds()) {
            switch action {
            case .wait(let end):
                waitEnd = end
            case .fetchState:
                do {
                    let state = try client.send(.getState)
                    lastReadError = nil
                    handle(.stateRead(state), perform)
                } catch {
                    lastReadError = error
                    handle(.readFailed, perform)
                }
            case .show, .gone, .back, .newBaseline, .flowFinished:
                perform(action)
            }
        }
    }
}

extension FollowRules.Event {
    /// The rules' event for what a client heard; nil for the bus going away, which ends a follow rather than
    /// steering it.
    public init?(_ event: NavigatorEvent) {
        switch event {
        case .stackChanged(let change): self = .stackChanged(change)
        case .flowFinished(let finished): self = .flowFinished(finished)
        case .appChanged(let change): self = .appChanged(change)
        case .navdAppeared: self = .navdAppeared
        case .navdVanished: self = .navdVanished
        case .woken, .timedOut: self = .tick
        case .busDisconnected: return nil
        }
    }
}
