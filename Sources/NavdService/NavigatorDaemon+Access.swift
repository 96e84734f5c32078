import DBus
import Navigation
import NavigatorProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Who may drive which navigator (docs/multi-user.md): each navigator's `access:` checked against
/// the caller the bus names, inside the object server's dispatch (after the unknown object,
/// interface and method errors, before the argument check), and the ObjectManager's view of an
/// app cut down to its `Access` for an outsider.
extension NavigatorDaemon {
    /// The object-server hooks of `navigator`: its access check and what an outsider sees of it.
    func accessHooks(for navigator: ServedNavigator) -> ObjectHooks {
        ObjectHooks(
            check: { [unowned self, unowned navigator] message, interface, member in
                refusal(of: message, to: navigator, interface: interface, member: member)
            },
            visibleProperties: { [unowned self, unowned navigator] caller in
                guard let access = navigator.coordinator.graph.access, !access.isOpenForReading else { return nil }
                guard let caller, refusal(of: caller, to: navigator, level: .read, member: nil) == nil else {
                    return [NavigatorProperty.access.name]
                }
                return nil
            })
    }

    /// `message`'s sender and what the bus said of it; nil when the call must wait for its sender's credentials:
    /// it is a call from a connection the bus has not described yet (docs/devtools.md: every change records its
    /// caller, and `access:` is checked against it). Such a call is parked; the loop goes on with the others.
    func caller(of message: Message) -> Caller? {
        let sender = message.sender
        switch callers.lookUp(message, sender: sender) {
        case .parked: return nil
        case .known(let identity): return Caller(sender: sender, identity: identity)
        case .refused: return Caller(sender: sender, identity: nil)
        }
    }

    /// Takes the bus's messages that concern callers: a credentials answer, which releases the calls parked
    /// for it (returned, in order, for the loop to handle), or a connection leaving (nothing released). Nil when
    /// `message` was neither.
    func takeCallerNews(_ message: Message) -> [Message]? {
        if message.kind == .methodReturn || message.kind == .error {
            return callers.answer(message)
        }
        if let change = message.nameOwnerChange {
            callers.forget(change)
            return []
        }
        return nil
    }

    /// `AccessDenied` for a call to `member` of `interface` on `navigator` that its caller may not
    /// make; nil when the call may go on. `Introspectable`, `Peer`, the ObjectManager and `Get` of
    /// property `Access` are open to everyone.
    func refusal(of message: Message, to navigator: ServedNavigator, interface: String, member: String) -> DBusError? {
        guard navigator.coordinator.graph.access != nil else { return nil }
        switch interface {
        case Navigator.interfaceName:
            let changes = NavigatorMethod.treeChangingNames.contains(member) || member == NavigatorMethod.reload.name
            return refusal(of: message, to: navigator, level: changes ? .change : .read, member: member)
        case StandardInterfaces.properties.name:
            if member == "Get", message.signature == "ss", let arguments = try? message.body(),
               arguments.count == 2, arguments[1].stringValue == NavigatorProperty.access.name {
                return nil
            }
            return refusal(of: message, to: navigator, level: member == "Set" ? .change : .read, member: "Properties.\(member)")
        default:
            return nil
        }
    }

    /// `AccessDenied` when `message`'s sender may not make a call of `level` on `navigator`
    /// (logged, at most once per uid per second, when `member` names the call); nil when it may.
    func refusal(of message: Message, to navigator: ServedNavigator, level: Access.Level, member: String?) -> DBusError? {
        guard let access = navigator.coordinator.graph.access else { return nil }
        let caller: String
        switch callers.known(message.sender) {
        case .known(let identity)?:
            if let uid = identity.uid {
                if uid == 0 || uid == getuid() || access.allows(uid: uid, groups: identity.groups, level) { return nil }
            }
            caller = "the caller is \(identity.describedUser)"
        case .refused(let reason)?:
            caller = "the bus gives no credentials for the caller \(message.sender ?? "?") (\(reason))"
        case .parked?, nil:
            caller = "the bus has not yet said who the caller \(message.sender ?? "?") is"
        }
        guard let member else { return DBusError(name: DBusErrorName.accessDenied, message: caller) }
        let text = "\(navigator.label): \(member) is allowed to \(access.describeAllowed(level)); \(caller)"
        logRefusal(text, uid: callers.uid(of: message.sender))
        return DBusError(name: DBusErrorName.accessDenied, message: text)
    }

    /// Logs a refusal unless one for the same uid was logged less than a second ago.
    private func logRefusal(_ text: String, uid: UInt32?) {
        let key = uid ?? UInt32.max
        let now = MonotonicClock.milliseconds()
        if let last = refusalLogTimes[key], now - last < 1000 { return }
        if refusalLogTimes.count >= 1024 { refusalLogTimes = refusalLogTimes.filter { now - $0.value < 1000 } }
        refusalLogTimes[key] = now
        logger.warning("refused: \(text)")
    }
}
