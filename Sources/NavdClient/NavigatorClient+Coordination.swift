import DBus

extension NavigatorClient {
    /// `Send`: reports `event` from the screen `source` (`""`: the top) and lets navd's handlers decide;
    /// `expectedRevision` 0 skips the revision check.
    public func send(_ event: String, params: Params = [:], source: String = "", expectedRevision: UInt64 = 0)
        throws(NavigatorError) -> EventOutcome
    {
        try Reply.eventOutcome(call(.send, [.string(source), .string(event), params.dbusValue, .uint64(expectedRevision)]))
    }

    /// `Start`: starts `flow` from the screen on top; returns the new revision and the instance's id.
    public func start(_ flow: String, params: Params = [:]) throws(NavigatorError) -> StartedFlow {
        try Reply.startedFlow(call(.start, [.string(flow), params.dbusValue]))
    }

    /// `Finish`: ends the innermost flow enclosing the screen on top with `output`.
    public func finish(_ output: String, params: Params = [:]) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.finish, [.string(output), params.dbusValue]))
    }

    /// `SetFacts`: sets the given facts, all or nothing.
    public func setFacts(_ facts: Params) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.setFacts, [facts.dbusValue]))
    }

    /// `GetFlows`: every flow instance in the tree, outer before inner.
    public func flows() throws(NavigatorError) -> [FlowInfo] {
        try Reply.flows(call(.getFlows))
    }

    /// `GetEvents`: the events the screen `source` (`""`: the top) can send, inner scopes first.
    public func events(source: String = "") throws(NavigatorError) -> [EventInfo] {
        try Reply.events(call(.getEvents, [.string(source)]))
    }

    /// `Resolve` of an event sent from the top screen: what `Send` would do, without doing it.
    public func resolve(event: String, params: Params = [:]) throws(NavigatorError) -> Resolution {
        try Reply.resolution(call(.resolve, [.string("event"), .string(event), params.dbusValue]))
    }

    /// `Resolve` of a link or named state: what `Open` would do, without doing it.
    public func resolve(link: String) throws(NavigatorError) -> Resolution {
        try Reply.resolution(call(.resolve, [.string("link"), .string(link), Params().dbusValue]))
    }

    /// The `Facts` property: every declared fact and its current value.
    public func facts() throws(NavigatorError) -> Params {
        try Reply.facts(call(interface: StandardInterfaces.properties.name, "Get",
                             [.string(Navigator.interfaceName), .string(NavigatorProperty.facts.name)]))
    }
}
