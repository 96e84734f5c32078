import DBus
import NavigatorProtocol
import Navigation

extension NavigatorDaemon {
    // What a change's flows send: Send, Start and the coordination readers are answered as every call is, from
    // what the contract declares of them (`NavigatorCall.meaning`).

    /// `FlowFinished` for each flow a change ended, in the change's order (finished ones first, then
    /// abandoned ones).
    func flowFinishedSignals(_ endedFlows: [FlowEnd], revision: UInt64, from navigator: ServedNavigator) -> [MarshalledMessage] {
        var signals: [MarshalledMessage] = []
        for end in endedFlows {
            do {
                signals.append(try server.marshalledSignal(
                    navigator.path, interface: Navigator.interfaceName, name: Navigator.flowFinished.name,
                    end.flowFinishedArguments(revision: revision)))
            } catch {
                logger.error("could not build FlowFinished: \(error.message)")
            }
        }
        return signals
    }
}
