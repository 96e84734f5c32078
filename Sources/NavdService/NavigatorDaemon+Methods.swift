import DBus
import NavigatorProtocol
import Navigation

#if canImport(Glibc)
import Glibc
#endif

extension NavigatorDaemon {
    /// Exports `navigator`'s object: the contract's interface, whose calls `handle` answers (through `answer`), its
    /// properties read from the state, and the access check of its route file.
    func export(_ navigator: ServedNavigator) {
        server.export(
            navigator.path,
            interface: Navigator.interface,
            implementation: InterfaceImplementation(
                methods: [:],
                getProperty: { [unowned navigator] name in
                    NavigatorProperty(rawValue: name).map { navigator.coordinator.value(of: $0) }
                },
                setProperty: nil
            )
        )
        navigators[navigator.path.rawValue] = navigator
        server.setHooks(navigator.path, accessHooks(for: navigator))
    }

    /// The one way into the handlers: every call of a method of the contract on `nav` comes here (from `handle`),
    /// its arguments already checked against the declared in-signature, and read here into the method's typed value
    /// (`NavigatorCall`; a value of another shape still throws `InvalidArgs` naming it). What the call asks is
    /// declared with the contract (`NavigatorCall.meaning`): a change is performed by the model and committed in
    /// the group commit before it is answered, a reading is answered from the state, and the three calls only the
    /// service can answer are answered here (`Reload` by the reload queue, its files parsed off the loop).
    func answer(_ method: NavigatorMethod, _ call: MethodCall, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let arguments = call.arguments
        let call = try NavigatorCall(method, values: arguments)
        switch call.meaning {
        case .change(let operation, let reply):
            let change = try perform(nav, operation)
            return .changed(change, reply: reply.values(of: change) { nav.coordinator.top.id }, call: call, arguments: arguments)
        case .reading(let read):
            return .reply(try read(nav.coordinator))
        case .service:
            switch call {
            case .reload: return .reload
            case .getChanges(let call): return try changes(call, on: nav)
            case .export(let call): return try export(call, on: nav)
            default: throw .failed("navd \(Navigator.version) has no handler for \(method.name)")
            }
        }
    }

    /// Applies one operation to the model; a refusal becomes the D-Bus error of its name.
    func perform(_ nav: ServedNavigator, _ operation: Operation) throws(DBusError) -> Change {
        do {
            return try nav.coordinator.perform(operation, at: Self.now())
        } catch {
            throw DBusError(error)
        }
    }

    /// `StackChanged` for a change (or, at start-up, for the state as it is), written straight
    /// from the path: the bytes `marshalledSignal` would make of its values, with no value tree.
    func stackChangedSignal(
        _ navigator: ServedNavigator, revision: UInt64, cause: String, tab: String, path: [Entry]
    ) -> MarshalledMessage? {
        do {
            return try signalTemplates(navigator).stackChanged.message { body in
                Navigator.writeStackChanged(revision: revision, cause: cause, tab: tab, path: path, into: &body)
            }
        } catch {
            logger.error("could not build StackChanged: \(error.message)")
            return nil
        }
    }

    /// One `PropertiesChanged` carrying the final values of the given properties, in declaration
    /// order, written straight from the state (the bytes `marshalledPropertiesChanged` would make).
    func propertiesChangedSignal(_ navigator: ServedNavigator, _ properties: PendingProperties) -> MarshalledMessage? {
        do {
            let template = try signalTemplates(navigator).propertiesChanged
            // One copy of the state for every property: reading each computed property through
            // the navigator would copy the whole coordinator (and retain what it holds) each time.
            let coordinator = navigator.coordinator
            return try template.message { body in
                body.string(Navigator.interfaceName)
                body.array(elementAlignment: 8) { body in
                    properties.forEach { property in
                        body.entry(property.name) { coordinator.writeValue(of: property, into: &$0) }
                    }
                }
                body.stringArray([])
            }
        } catch {
            logger.error("could not build PropertiesChanged: \(error.message)")
            return nil
        }
    }

    /// `navigator`'s signal templates, made the first time they are needed.
    func signalTemplates(_ navigator: ServedNavigator) throws(DBusError) -> ServedNavigator.SignalTemplates {
        if let templates = navigator.signalTemplates { return templates }
        let templates = ServedNavigator.SignalTemplates(
            stackChanged: try server.signalTemplate(
                navigator.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name),
            propertiesChanged: try server.propertiesChangedTemplate(navigator.path, interface: Navigator.interfaceName))
        navigator.signalTemplates = templates
        return templates
    }

    /// The start-up `StackChanged` of every navigator (the default one first, then the apps by
    /// name), each from its own path: cause `restore` or `start`, the current revision unchanged.
    func announceStart() {
        for navigator in [main] + apps.keys.sorted().compactMap({ apps[$0] }) {
            announceStart(navigator)
        }
        connection.flush()
    }

    /// `navigator`'s start-up `StackChanged`.
    func announceStart(_ navigator: ServedNavigator) {
        let coordinator = navigator.coordinator
        if let signal = stackChangedSignal(
            navigator, revision: coordinator.revision, cause: navigator.restored ? Navigator.restoreCause : Navigator.startCause,
            tab: coordinator.selectedTab, path: coordinator.path
        ) {
            send([.marshalled(signal)])
        }
    }

    /// Microseconds since the epoch: the time recorded with each change.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
