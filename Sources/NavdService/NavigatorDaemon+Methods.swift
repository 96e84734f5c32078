import DBus
import NavigatorProtocol
import Navigation

#if canImport(Glibc)
import Glibc
#endif

extension NavigatorDaemon {
    /// Exports navd's object with the handlers of `Navigator.interface`.
    func exportObject() {
        server.export(
            Navigator.objectPath,
            interface: Navigator.interface,
            implementation: InterfaceImplementation(
                methods: handlers(),
                getProperty: { [unowned self] name in NavigatorProperty(rawValue: name).map(value(of:)) },
                setProperty: nil
            )
        )
    }

    /// One handler per method of the interface. The arguments arrive checked against the declared
    /// in-signature; a value of another shape still throws `InvalidArgs` naming it.
    func handlers() -> [String: (MethodCall) throws -> [DBusValue]] {
        func route(_ call: MethodCall) throws(DBusError) -> String { try call.arguments[0].requiredString("route") }
        func params(_ call: MethodCall) throws(DBusError) -> InputParams { try InputValue.params(dbusValue: call.arguments[1]) }
        func text(_ call: MethodCall, _ what: String) throws(DBusError) -> String { try call.arguments[0].requiredString(what) }

        let handlers: [NavigatorMethod: Handler] = [
            .push: { [unowned self] call in try mutate(.push(route: route(call), params: params(call)), returningId: true) },
            .pop: { [unowned self] _ in try mutate(.pop) },
            .popTo: { [unowned self] call in try mutate(.popTo(target: text(call, "target"))) },
            .popToRoot: { [unowned self] _ in try mutate(.popToRoot) },
            .replace: { [unowned self] call in
                try mutate(.replace(route: route(call), params: params(call)), returningId: true)
            },
            .setStack: { [unowned self] call in try mutate(.setStack(ScreenRequest.screens(dbusValue: call.arguments[0]))) },
            .present: { [unowned self] call in
                try mutate(
                    .present(route: route(call), params: params(call), style: call.arguments[2].requiredString("style")),
                    returningId: true)
            },
            .dismiss: { [unowned self] _ in try mutate(.dismiss) },
            .dismissAll: { [unowned self] _ in try mutate(.dismissAll) },
            .back: { [unowned self] _ in try mutate(.back) },
            .selectTab: { [unowned self] call in try mutate(.selectTab(text(call, "tab"))) },
            .open: { [unowned self] call in try mutate(.open(text(call, "target"))) },
            .apply: { [unowned self] call in
                try mutate(.apply(
                    RawOperation.operations(dbusValue: call.arguments[0]),
                    expectedRevision: call.arguments[1].requiredUInt64("expected_revision")))
            },
            .undo: { [unowned self] _ in try mutate(.undo) },
            .redo: { [unowned self] _ in try mutate(.redo) },
            .getState: { [unowned self] _ in
                [.uint64(coordinator.revision), .string(coordinator.selectedTab), Entry.dbusValue(path: coordinator.path)]
            },
            .getTree: { [unowned self] _ in
                [.uint64(coordinator.revision), .string(coordinator.selectedTab), Node.dbusValue(nodes: coordinator.nodes)]
            },
            .getRoutes: { [unowned self] _ in [routesValue()] },
            .history: { [unowned self] call in
                let limit = try call.arguments[0].requiredUInt32("limit")
                return [HistoryEntry.dbusValue(history: coordinator.history(limit: Int(limit)))]
            },
        ].merging(coordinationHandlers()) { first, _ in first }
        return Dictionary(uniqueKeysWithValues: handlers.map { ($0.key.name, $0.value) })
    }

    /// Applies one operation to the model; the reply is the new (or, for a no-op, current) revision,
    /// and with `returningId` the id of the screen the call made (or, redirected, the screen now on top).
    func mutate(_ operation: Operation, returningId: Bool = false) throws(DBusError) -> [DBusValue] {
        let change = try perform(operation)
        guard returningId else { return [.uint64(change.revision)] }
        return [.uint64(change.revision), .string(change.newScreenId ?? coordinator.top.id)]
    }

    /// Applies one operation to the model and hands the change to the loop (`currentChange`);
    /// a refusal becomes the D-Bus error of its name.
    func perform(_ operation: Operation) throws(DBusError) -> Change {
        let change: Change
        do {
            change = try coordinator.perform(operation, at: Self.now())
        } catch {
            throw DBusError(error)
        }
        currentChange = change
        return change
    }

    /// The current value of a property of navd's interface.
    func value(of property: NavigatorProperty) -> DBusValue {
        switch property {
        case .revision: .uint64(coordinator.revision)
        case .depth: .uint32(UInt32(clamping: coordinator.depth))
        case .top: .string(coordinator.top.route)
        case .topID: .string(coordinator.top.id)
        case .selectedTab: .string(coordinator.selectedTab)
        case .tabs: .stringArray(coordinator.tabs)
        case .canUndo: .boolean(coordinator.canUndo)
        case .canRedo: .boolean(coordinator.canRedo)
        case .states: .stringDictionary(coordinator.namedStates.keys.sorted().map { ($0, coordinator.namedStates[$0]!) })
        case .version: .string(Navigator.version)
        case .facts: coordinator.facts.dbusValue
        }
    }

    /// `StackChanged` for a change (or, at start-up, for the state as it is).
    func stackChangedSignal(revision: UInt64, cause: String, tab: String, path: [Entry]) -> MarshalledMessage? {
        do {
            return try server.marshalledSignal(
                Navigator.objectPath, interface: Navigator.interfaceName, name: Navigator.stackChanged.name,
                [.uint64(revision), .string(cause), .string(tab), Entry.dbusValue(path: path)]
            )
        } catch {
            logger.error("could not build StackChanged: \(error.message)")
            return nil
        }
    }

    /// One `PropertiesChanged` carrying the final values of the given properties, in declaration order.
    func propertiesChangedSignal(_ changed: Set<ChangedProperty>) -> MarshalledMessage? {
        let properties = Set(changed.compactMap(NavigatorProperty.init))
        let values = NavigatorProperty.allCases.filter(properties.contains).map { ($0.name, value(of: $0)) }
        do {
            return try server.marshalledPropertiesChanged(
                Navigator.objectPath, interface: Navigator.interfaceName, changed: values, invalidated: [])
        } catch {
            logger.error("could not build PropertiesChanged: \(error.message)")
            return nil
        }
    }

    /// The start-up `StackChanged`: cause `restore` or `start`, the current revision unchanged.
    func announceStart() {
        if let signal = stackChangedSignal(
            revision: coordinator.revision, cause: restored ? "restore" : "start", tab: coordinator.selectedTab, path: coordinator.path
        ) {
            send([.marshalled(signal)])
        }
        connection.flush()
    }

    /// `GetRoutes`: one `(sa{sv})` per route, in the graph's order.
    func routesValue() -> DBusValue {
        let graph = coordinator.graph
        return RouteInfo.dbusValue(routes: graph.routeOrder.compactMap { graph.routes[$0].map(RouteInfo.init) })
    }

    /// Microseconds since the epoch: the time recorded with each change.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}

extension NavigatorProperty {
    /// The property that publishes a value the model reports as changed.
    init(_ changed: ChangedProperty) {
        switch changed {
        case .revision: self = .revision
        case .depth: self = .depth
        case .top: self = .top
        case .topID: self = .topID
        case .selectedTab: self = .selectedTab
        case .canUndo: self = .canUndo
        case .canRedo: self = .canRedo
        case .facts: self = .facts
        case .tabs: self = .tabs
        case .states: self = .states
        }
    }
}
