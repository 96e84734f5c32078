import DBus
import NavigatorProtocol
import Navigation

extension NavigatorDaemon {
    // The coordination methods' handlers that need more than a line: events, flows and the dry run. Send and
    // Start change the tree and are committed like Push; GetEvents, GetEventParams and Resolve read the
    // state as it is durable (the loop commits pending changes before a read).

    /// Send: the event's handler run from the source screen; the reply names its outcome.
    func send(_ call: SendArguments, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let change = try perform(nav, .send(
            source: call.source, event: call.event, params: call.params.reading, expectedRevision: call.expectedRevision))
        return Answer([.uint64(change.revision), .string(change.outcome.rawValue)], change: change)
    }

    /// Start: a flow from the screen on top; the reply names the new flow instance.
    func start(_ call: StartArguments, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let change = try perform(nav, .start(flow: call.flow, params: call.params.reading))
        return Answer([.uint64(change.revision), .string(change.newFlowID ?? "")], change: change)
    }

    /// GetEvents (the events the source screen would have handled) and GetEventParams (that list with
    /// the params each handler reads from the event): `answer` for the call's source screen.
    func bySource(
        _ call: SourceArguments, _ answer: (String) throws(NavigationError) -> DBusValue
    ) throws(DBusError) -> Answer {
        do {
            return Answer([try answer(call.source)])
        } catch {
            throw DBusError(error)
        }
    }

    /// Resolve: a dry run of an event from the top screen or of a link; an unknown kind is `InvalidArgs`.
    func resolve(_ call: ResolveArguments, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let request: ResolveRequest
        switch call.kind {
        case "event": request = .event(call.target, params: call.params.reading)
        case "link": request = .link(call.target)
        default:
            throw .invalidArgs("Resolve's kind is 'event' (target: an event) or 'link' (target: what Open accepts), not '\(call.kind)'")
        }
        do {
            return Answer(try nav.coordinator.resolve(request).dbusValues)
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
