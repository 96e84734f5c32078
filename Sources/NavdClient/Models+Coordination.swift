/// What `Send` answered: the revision after the event, and what it did.
public struct EventOutcome: Hashable, Sendable {
    /// The revision after the event (the current one when the outcome is `ignored`).
    public var revision: UInt64
    /// `applied`, `redirected`, `resumed`, `finished` or `ignored`.
    public var outcome: Outcome
}

/// What `Start` answered: the revision and the new flow instance's id (a redirected Start: the guard flow's).
public struct StartedFlow: Hashable, Sendable {
    /// The new revision.
    public var revision: UInt64
    /// The flow instance's id.
    public var id: String
}

/// One `FlowFinished` signal: a flow instance that a change ended, after that change's `StackChanged`.
public struct FlowFinished: Hashable, Sendable {
    /// The revision of the change that ended it.
    public var revision: UInt64
    /// The instance, its output (`""` when abandoned) and the output's params.
    public var end: FlowEnd

    /// Whether the flow left the tree without finishing (no output, no handler ran).
    public var isAbandoned: Bool { end.output.isEmpty }
}

extension Resolution {
    /// The state the tree would have.
    public var state: VisibleState { VisibleState(revision: revision, tab: tab, path: path) }
}
