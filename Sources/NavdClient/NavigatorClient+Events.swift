#if canImport(Glibc)
import Glibc
#endif
import DBus

/// Something a watcher hears from the bus, or a reason its wait ended.
public enum NavigatorEvent: Hashable, Sendable {
    /// The followed navigator's `StackChanged` signal.
    case stackChanged(StateChange)
    /// The followed navigator's `FlowFinished` signal: a flow instance the change of that revision ended.
    case flowFinished(FlowFinished)
    /// An app appeared or went (the ObjectManager's `InterfacesAdded` / `InterfacesRemoved`); heard
    /// only by a client that acts on an app, for any app.
    case appChanged(AppChange)
    /// navd's bus name got an owner (navd started, was activated, or restarted).
    case navdAppeared(owner: String)
    /// navd's bus name lost its owner (navd exited or crashed).
    case navdVanished
    /// `wake()` was called (typically from a signal handler).
    case woken
    /// Nothing arrived within the timeout.
    case timedOut
    /// The bus connection is gone; no more events will come.
    case busDisconnected
}

extension NavigatorClient {
    /// Starts receiving the navigator's `StackChanged` and `FlowFinished` (from its own path only),
    /// navd's `NameOwnerChanged`, and for a client of an app the ObjectManager's `InterfacesAdded` and
    /// `InterfacesRemoved`; events queue until `nextEvent` reads them.
    /// Subscribe before the first `GetState` so that no change can fall between the two.
    /// From here on the client follows who owns navd's bus name (`followedOwner`).
    public func subscribe() throws(NavigatorError) {
        do {
            try connection.addMatch(Navigator.stackChangedRule(path: path).text)
            try connection.addMatch(Navigator.flowFinishedRule(path: path).text)
            if app != nil { try connection.addMatch(Navigator.objectManagerRule.text) }
            try connection.addMatch(Navigator.nameOwnerChangedRule.text)
            followedOwner = try connection.nameOwner(Navigator.busName)
        } catch {
            throw NavigatorError(callError: error, bus: busDescription)
        }
    }

    /// Returns the next event, waiting at most `timeoutMilliseconds` (negative: no limit).
    /// Messages that are not events (other signals, malformed ones) are skipped.
    public func nextEvent(timeoutMilliseconds: Int32) -> NavigatorEvent {
        let deadline = timeoutMilliseconds < 0 ? nil : MonotonicClock.milliseconds() + Int64(timeoutMilliseconds)
        while true {
            while let message = connection.popMessage() {
                if let event = event(from: message) { return event }
            }
            var remaining: Int32 = -1
            if let deadline {
                let left = deadline - MonotonicClock.milliseconds()
                if left <= 0 { return .timedOut }
                remaining = Int32(clamping: left)
            }
            switch connection.waitForMessages(timeoutMilliseconds: remaining) {
            case .messages: continue
            case .timedOut: return .timedOut
            case .woken: return .woken
            case .disconnected:
                while let message = connection.popMessage() {
                    if let event = event(from: message) { return event }
                }
                return .busDisconnected
            }
        }
    }

    /// Interrupts a `nextEvent` wait, which then returns `.woken`; safe to call from a signal handler.
    public func wake() {
        connection.wake()
    }

    /// The event a message carries, or nil when it carries none. Only the bus may report owner changes,
    /// and only the current owner of navd's bus name may send `StackChanged`, `FlowFinished` or the
    /// ObjectManager's signals: a look-alike sent straight to this connection by another peer is dropped,
    /// and so is a navigator signal from another path than this client's.
    public func event(from message: Message) -> NavigatorEvent? {
        guard message.kind == .signal else { return nil }
        if let change = message.nameOwnerChange {
            guard change.name == Navigator.busName else { return nil }
            followedOwner = change.newOwner
            return change.newOwner.map { .navdAppeared(owner: $0) } ?? .navdVanished
        }
        guard let sender = message.sender, sender == followedOwner else { return nil }
        if app != nil, message.interface == StandardInterfaces.objectManager.name,
           message.path == Navigator.objectPath.rawValue, let member = message.member
        {
            guard let values = try? message.body(), let change = AppChange(member: member, values) else { return nil }
            return .appChanged(change)
        }
        guard message.interface == Navigator.interfaceName, message.path == path.rawValue else { return nil }
        if message.member == Navigator.stackChanged.name, message.signature == Navigator.stackChanged.signature.rawValue {
            guard let values = try? message.body(), let change = try? StateChange(stackChanged: values) else { return nil }
            return .stackChanged(change)
        }
        if message.member == Navigator.flowFinished.name, message.signature == Navigator.flowFinished.signature.rawValue {
            guard let values = try? message.body(), let finished = try? FlowFinished(dbusValues: values) else { return nil }
            return .flowFinished(finished)
        }
        return nil
    }
}
