import DBus
import NavigatorProtocol
import Navigation

extension NavigatorDaemon {
    typealias Handler = (MethodCall) throws -> [DBusValue]

    /// The handlers of the coordination methods: events, flows, facts and the dry run. Send, Start,
    /// Finish and SetFacts change the tree and are committed like Push; GetFlows, GetEvents,
    /// GetEventParams and Resolve read the state as it is durable (the loop commits pending changes before a read).
    func coordinationHandlers(for nav: ServedNavigator) -> [NavigatorMethod: Handler] {
        func params(_ call: MethodCall, _ index: Int) throws(DBusError) -> InputParams {
            try InputValue.params(dbusValue: call.arguments[index])
        }
        return [
            .send: { [unowned self, unowned nav] call in
                let change = try perform(nav, .send(
                    source: call.arguments[0].requiredString("source"), event: call.arguments[1].requiredString("event"),
                    params: params(call, 2), expectedRevision: call.arguments[3].requiredUInt64("expected_revision")))
                return [.uint64(change.revision), .string(change.outcome.rawValue)]
            },
            .start: { [unowned self, unowned nav] call in
                let change = try perform(nav, .start(flow: call.arguments[0].requiredString("flow"), params: params(call, 1)))
                return [.uint64(change.revision), .string(change.newFlowID ?? "")]
            },
            .finish: { [unowned self, unowned nav] call in
                try mutate(nav, .finish(output: call.arguments[0].requiredString("output"), params: params(call, 1)))
            },
            .setFacts: { [unowned self, unowned nav] call in try mutate(nav, .setFacts(params(call, 0))) },
            .getFlows: { [unowned nav] _ in [FlowInfo.dbusValue(flows: nav.coordinator.flows)] },
            .getEvents: { [unowned self, unowned nav] call in
                try bySource(call) { source throws(NavigationError) in
                    EventInfo.dbusValue(events: try nav.coordinator.events(source: source))
                }
            },
            .getEventParams: { [unowned self, unowned nav] call in
                try bySource(call) { source throws(NavigationError) in
                    EventParamsInfo.dbusValue(events: try nav.coordinator.eventParams(source: source))
                }
            },
            .resolve: { [unowned self, unowned nav] call in try resolve(nav, call) },
        ]
    }

    /// GetEvents (the events the source screen would have handled) and GetEventParams (that list with
    /// the params each handler reads from the event): `answer` for the call's source screen.
    private func bySource(
        _ call: MethodCall, _ answer: (String) throws(NavigationError) -> DBusValue
    ) throws(DBusError) -> [DBusValue] {
        let source = try call.arguments[0].requiredString("source")
        do {
            return [try answer(source)]
        } catch {
            throw DBusError(error)
        }
    }

    /// Resolve: a dry run of an event from the top screen or of a link; an unknown kind is `InvalidArgs`.
    private func resolve(_ nav: ServedNavigator, _ call: MethodCall) throws(DBusError) -> [DBusValue] {
        let kind = try call.arguments[0].requiredString("kind")
        let target = try call.arguments[1].requiredString("target")
        let request: ResolveRequest
        switch kind {
        case "event": request = .event(target, params: try InputValue.params(dbusValue: call.arguments[2]))
        case "link": request = .link(target)
        default: throw .invalidArgs("Resolve's kind is 'event' (target: an event) or 'link' (target: what Open accepts), not '\(kind)'")
        }
        do {
            return try nav.coordinator.resolve(request).dbusValues
        } catch {
            throw DBusError(error)
        }
    }

    /// `FlowFinished` for each flow a change ended, in the change's order (finished ones first, then
    /// abandoned ones).
    func flowFinishedSignals(_ change: Change, from navigator: ServedNavigator) -> [MarshalledMessage] {
        var signals: [MarshalledMessage] = []
        for end in change.endedFlows {
            do {
                signals.append(try server.marshalledSignal(
                    navigator.path, interface: Navigator.interfaceName, name: Navigator.flowFinished.name,
                    end.flowFinishedArguments(revision: change.revision)))
            } catch {
                logger.error("could not build FlowFinished: \(error.message)")
            }
        }
        return signals
    }
}
