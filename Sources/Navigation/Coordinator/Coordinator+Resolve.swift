/// What Resolve asks about: an event from the top screen, or a link (what Open accepts).
public enum ResolveRequest: Hashable, Sendable {
    /// `Send("", event, params)`.
    case event(String, params: InputParams)
    /// `Open(target)`.
    case link(String)
}

/// What a call would do, without doing it: Resolve's reply.
public struct Resolution: Hashable, Sendable {
    /// The outcome the real call would give (`noop` when a link would leave the tree as it is).
    public var outcome: Outcome
    /// The revision the tree would have.
    public var revision: UInt64
    /// The tab that would be selected ("" when untabbed).
    public var tab: String
    /// The path the tree would have.
    public var path: [Entry]
    /// One human-readable line per step: scopes tried, the handler chosen, guards checked, redirects, resumes.
    public var trace: [String]

    /// A dry run's answer, as Resolve replies it.
    public init(outcome: Outcome, revision: UInt64, tab: String, path: [Entry], trace: [String]) {
        self.outcome = outcome
        self.revision = revision
        self.tab = tab
        self.path = path
        self.trace = trace
    }
}

extension Coordinator {
    /// A dry run of `request` from the tree as it is: the same checks, errors and outcome as the real call,
    /// and nothing changed, sent or recorded.
    public func resolve(_ request: ResolveRequest) throws(NavigationError) -> Resolution {
        var copy = self
        let op: Operation = switch request {
        case .event(let event, let params): .send(source: "", event: event, params: params, expectedRevision: 0)
        case .link(let target): .open(target)
        }
        let (change, trace) = try copy.perform(op, at: 0, tracing: true)
        var outcome = change.outcome
        if case .link = request {
            outcome = change.isNoOp ? .noop : change.outcome == .redirected ? .redirected : .applied
        }
        return Resolution(outcome: outcome, revision: change.revision, tab: change.selectedTab, path: change.path, trace: trace)
    }
}
