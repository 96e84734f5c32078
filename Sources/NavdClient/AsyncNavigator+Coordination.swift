import DBus

// The blocking client's coordination methods (NavigatorClient+Coordination.swift), awaited: the same
// arguments, replies and errors.

extension AsyncNavigator {
    /// `Send`: reports `event` from the screen `source` (`""`: the top) and lets navd's handlers decide;
    /// `expectedRevision` 0 skips the revision check.
    public func send(_ event: String, params: Params = [:], source: String = "", expectedRevision: UInt64 = 0)
        async throws(NavigatorError) -> EventOutcome
    {
        try Reply.eventOutcome(
            await call(.send, [.string(source), .string(event), params.dbusValue, .uint64(expectedRevision)]))
    }

    /// `Start`: starts `flow` from the screen on top; returns the new revision and the instance's id.
    public func start(_ flow: String, params: Params = [:]) async throws(NavigatorError) -> StartedFlow {
        try Reply.startedFlow(await call(.start, [.string(flow), params.dbusValue]))
    }

    /// `Finish`: ends the innermost flow enclosing the screen on top with `output`.
    public func finish(_ output: String, params: Params = [:]) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.finish, [.string(output), params.dbusValue]))
    }

    /// `SetFacts`: sets the given facts, all or nothing.
    public func setFacts(_ facts: Params) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.setFacts, [facts.dbusValue]))
    }

    /// `GetFlows`: every flow instance in the tree, outer before inner.
    public func flows() async throws(NavigatorError) -> [FlowInfo] {
        try Reply.flows(await call(.getFlows))
    }

    /// `GetEvents`: the events the screen `source` (`""`: the top) can send, inner scopes first.
    public func events(source: String = "") async throws(NavigatorError) -> [EventInfo] {
        try Reply.events(await call(.getEvents, [.string(source)]))
    }

    /// `Resolve` of an event sent from the top screen: what `Send` would do, without doing it.
    public func resolve(event: String, params: Params = [:]) async throws(NavigatorError) -> Resolution {
        try Reply.resolution(await call(.resolve, [.string("event"), .string(event), params.dbusValue]))
    }

    /// `Resolve` of a link or named state: what `Open` would do, without doing it.
    public func resolve(link: String) async throws(NavigatorError) -> Resolution {
        try Reply.resolution(await call(.resolve, [.string("link"), .string(link), Params().dbusValue]))
    }

    /// The `Facts` property: every declared fact and its current value.
    public func facts() async throws(NavigatorError) -> Params {
        try Reply.facts(await call(interface: StandardInterfaces.properties.name, "Get",
                                   [.string(Navigator.interfaceName), .string(NavigatorProperty.facts.name)]))
    }
}
