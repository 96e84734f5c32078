import DBus
import Navigation

#if canImport(Glibc)
import Glibc
#endif

extension NavigatorDaemon {
    /// Exports `/org/navd/Navigator1` with the handlers of `Navigator.interface`.
    func exportObject() {
        var methods: [String: (MethodCall) throws -> [DBusValue]] = [:]
        let args = { (call: MethodCall, index: Int) -> DBusValue in call.arguments[index] }
        func string(_ call: MethodCall, _ index: Int) -> String { args(call, index).stringValue ?? "" }

        methods["Push"] = { [unowned self] call in
            try mutate(.push(route: string(call, 0), params: Conversions.params(args(call, 1))), returningId: true)
        }
        methods["Pop"] = { [unowned self] _ in try mutate(.pop) }
        methods["PopTo"] = { [unowned self] call in try mutate(.popTo(target: string(call, 0))) }
        methods["PopToRoot"] = { [unowned self] _ in try mutate(.popToRoot) }
        methods["Replace"] = { [unowned self] call in
            try mutate(.replace(route: string(call, 0), params: Conversions.params(args(call, 1))), returningId: true)
        }
        methods["SetStack"] = { [unowned self] call in try mutate(.setStack(Conversions.screens(args(call, 0)))) }
        methods["Present"] = { [unowned self] call in
            try mutate(
                .present(route: string(call, 0), params: Conversions.params(args(call, 1)), style: string(call, 2)),
                returningId: true
            )
        }
        methods["Dismiss"] = { [unowned self] _ in try mutate(.dismiss) }
        methods["DismissAll"] = { [unowned self] _ in try mutate(.dismissAll) }
        methods["Back"] = { [unowned self] _ in try mutate(.back) }
        methods["SelectTab"] = { [unowned self] call in try mutate(.selectTab(string(call, 0))) }
        methods["Open"] = { [unowned self] call in try mutate(.open(string(call, 0))) }
        methods["Apply"] = { [unowned self] call in
            try mutate(.apply(Conversions.rawOperations(args(call, 0)), expectedRevision: args(call, 1).uint64Value ?? 0))
        }
        methods["Undo"] = { [unowned self] _ in try mutate(.undo) }
        methods["Redo"] = { [unowned self] _ in try mutate(.redo) }

        methods["GetState"] = { [unowned self] _ in
            [.uint64(coordinator.revision), .string(coordinator.selectedTab), Conversions.dbus(path: coordinator.path)]
        }
        methods["GetTree"] = { [unowned self] _ in
            [.uint64(coordinator.revision), .string(coordinator.selectedTab), Conversions.dbus(nodes: coordinator.nodes)]
        }
        methods["GetRoutes"] = { [unowned self] _ in [routesValue()] }
        methods["History"] = { [unowned self] call in
            let limit = Int(args(call, 0).uint32Value ?? 0)
            return [Conversions.dbus(history: coordinator.history(limit: limit))]
        }

        server.export(
            Navigator.objectPath,
            interface: Navigator.interface,
            implementation: InterfaceImplementation(
                methods: methods,
                getProperty: { [unowned self] name in property(name) },
                setProperty: nil
            )
        )
    }

    /// Applies one operation to the model; the reply is the new (or, for a no-op, current) revision.
    private func mutate(_ operation: Operation, returningId: Bool = false) throws -> [DBusValue] {
        let change: Change
        do {
            change = try coordinator.perform(operation, at: Self.now())
        } catch {
            throw DBusError(name: Navigator.errorPrefix + error.name, message: error.message)
        }
        currentChange = change
        guard returningId else { return [.uint64(change.revision)] }
        return [.uint64(change.revision), .string(change.newScreenId ?? coordinator.top.id)]
    }

    /// The current value of a property of `org.navd.Navigator1`.
    func property(_ name: String) -> DBusValue? {
        switch name {
        case "Revision": return .uint64(coordinator.revision)
        case "Depth": return .uint32(UInt32(coordinator.path.count))
        case "Top": return .string(coordinator.top.route)
        case "TopId": return .string(coordinator.top.id)
        case "SelectedTab": return .string(coordinator.selectedTab)
        case "Tabs": return Conversions.dbus(strings: coordinator.tabs)
        case "CanUndo": return .boolean(coordinator.canUndo)
        case "CanRedo": return .boolean(coordinator.canRedo)
        case "States": return Conversions.dbus(stringMap: coordinator.namedStates)
        case "Version": return .string(Navigator.version)
        default: return nil
        }
    }

    /// `StackChanged` for the state as it is now.
    func stackChangedSignal(revision: UInt64, cause: String) -> Message? {
        do {
            return try server.signal(
                Navigator.objectPath, interface: Navigator.interfaceName, name: "StackChanged",
                [.uint64(revision), .string(cause), .string(coordinator.selectedTab), Conversions.dbus(path: coordinator.path)]
            )
        } catch {
            logger.error("could not build StackChanged: \(error.message)")
            return nil
        }
    }

    /// One `PropertiesChanged` carrying the final values of the given properties.
    func sendPropertiesChanged(_ changed: Set<ChangedProperty>) {
        let ordered = ChangedProperty.allCases.filter(changed.contains)
        let values = ordered.compactMap { p in property(p.rawValue).map { (p.rawValue, $0) } }
        do {
            send(try server.propertiesChanged(Navigator.objectPath, interface: Navigator.interfaceName, changed: values, invalidated: []))
        } catch {
            logger.error("could not build PropertiesChanged: \(error.message)")
        }
    }

    /// The start-up `StackChanged`: cause `restore` or `start`, the current revision unchanged.
    func announceStart() {
        if let signal = stackChangedSignal(revision: coordinator.revision, cause: restored ? "restore" : "start") {
            send(signal)
        }
        connection.flush()
    }

    /// `GetRoutes`: one `(sa{sv})` per route, in the graph's order.
    func routesValue() -> DBusValue {
        let graph = coordinator.graph
        let entries: [DBusValue] = graph.routeOrder.compactMap { name in
            guard let route = graph.routes[name] else { return nil }
            var fields: [(String, DBusValue)] = [
                ("title", .string(route.title)),
                ("params", Conversions.dbus(stringMap: route.params.mapValues(\.rawValue))),
                ("required", Conversions.dbus(strings: route.required.sorted())),
                ("presentations", Conversions.dbus(strings: route.presentations.map(\.rawValue).sorted())),
            ]
            if let link = route.link { fields.append(("link", .string(link))) }
            for key in route.hints.keys.sorted() {
                switch route.hints[key]! {
                case .string(let s): fields.append((key, .string(s)))
                case .int(let i): fields.append((key, .int64(i)))
                }
            }
            return .structure([.string(name), DBusValue.vardict(fields)])
        }
        return .array(element: Conversions.routeSignature, entries)
    }

    /// Microseconds since the epoch: the time recorded with each change.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
