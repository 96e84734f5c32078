import DBus
import Foundation
import NavdClient
import TestSupport

/// A process-local peer that owns `org.navd.Navigator1` on a private bus and sends the StackChanged
/// signals a test scripts, so navwatch can be shown what a real navd never does on purpose:
/// a revision that jumps (a missed signal), a stale signal, a daemon vanishing mid-stream.
///
/// It answers GetState, GetTree, GetRoutes and the properties from the state the test set, Push with the
/// reply the test set (changing nothing), and counts GetState calls. Everything else about navd is tested against the real daemon.
final class NavwatchScriptedNavigator: @unchecked Sendable {
    let connection: Connection
    let server = ObjectServer()
    let loop: ServiceLoop
    private let lock = NSLock()
    private var current: NavigationState
    private var stateCalls = 0
    private var pushAnswer: (revision: UInt64, id: String) = (1, "pushed-1")

    static let path = ObjectPath(unchecked: "/org/navd/Navigator1")
    static let declaration = InterfaceDeclaration(
        name: "org.navd.Navigator1",
        methods: [
            MethodDeclaration("GetState", out: [.init("revision", "t"), .init("tab", "s"), .init("path", "a(sssa{sv})")]),
            MethodDeclaration("GetTree", out: [.init("revision", "t"), .init("tab", "s"), .init("nodes", "a(ssssa{sv})")]),
            MethodDeclaration("GetRoutes", out: [.init("routes", "a(sa{sv})")]),
            MethodDeclaration("Push", in: [.init("route", "s"), .init("params", "a{sv}")],
                              out: [.init("revision", "t"), .init("id", "s")]),
        ],
        signals: [
            SignalDeclaration("StackChanged", [
                .init("revision", "t"), .init("cause", "s"), .init("tab", "s"), .init("path", "a(sssa{sv})"),
            ]),
        ],
        properties: [PropertyDeclaration("Tabs", "as"), PropertyDeclaration("Revision", "t")])

    /// Takes the name on `bus` and starts answering with `state`.
    init(bus: PrivateBus, state: NavigationState) throws {
        current = state
        connection = try Connection(.address(bus.address))
        loop = ServiceLoop(connection: connection, server: server)
        server.export(Self.path, interface: Self.declaration, implementation: InterfaceImplementation(
            methods: [
                // weak: the server (owned by self) keeps these closures; a strong capture would be
                // a retain cycle that LeakSanitizer reports.
                "GetState": { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let state = lock.withLock { stateCalls += 1; return current }
                    return [.uint64(state.revision), .string(state.tab), Self.pathValue(state.path)]
                },
                "GetTree": { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let state = lock.withLock { current }
                    return [.uint64(state.revision), .string(state.tab), Self.treeValue(state)]
                },
                "GetRoutes": { _ in [Self.routesValue] },
                "Push": { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let answer = lock.withLock { pushAnswer }
                    return [.uint64(answer.revision), .string(answer.id)]
                },
            ],
            getProperty: { [weak self] name in
                guard let self else { return nil }
                switch name {
                case "Tabs": return .array(element: Signature(unchecked: "s"), [.string("rainbow"), .string("news")])
                case "Revision": return .uint64(lock.withLock { current.revision })
                default: return nil
                }
            }))
        try connection.requestName("org.navd.Navigator1")
        loop.start()
    }

    deinit { stop() }

    /// How many GetState calls it answered.
    var getStateCalls: Int { lock.withLock { stateCalls } }

    /// Sets what GetState answers from now on.
    func setState(_ state: NavigationState) { lock.withLock { current = state } }

    /// Sets what Push answers from now on (the state stays as it is).
    func setPushAnswer(revision: UInt64, id: String) { lock.withLock { pushAnswer = (revision, id) } }

    /// Sends `StackChanged(revision, cause, tab, path)` for `state` (and makes it current unless told not to).
    func emit(_ cause: String, _ state: NavigationState, makeCurrent: Bool = true) throws {
        if makeCurrent { setState(state) }
        try loop.perform { [self] in
            let signal = try server.signal(Self.path, interface: "org.navd.Navigator1", name: "StackChanged", [
                .uint64(state.revision), .string(cause), .string(state.tab), Self.pathValue(state.path),
            ])
            try connection.send(signal)
            connection.flush()
        }
    }

    /// Leaves the bus (its name goes with it, as when navd exits).
    func stop() {
        loop.stop()
        connection.close()
    }

    static func pathValue(_ path: [Entry]) -> DBusValue {
        .array(element: Signature(unchecked: "(sssa{sv})"), path.map { entry in
            .structure([.string(entry.id), .string(entry.route), .string(entry.presentation), entry.params.dbusValue])
        })
    }

    static func treeValue(_ state: NavigationState) -> DBusValue {
        var nodes: [DBusValue] = [.structure([.string("tab-1"), .string(""), .string("tab"), .string(state.tab),
                                              Params().dbusValue])]
        var parent = "tab-1"
        for entry in state.path {
            nodes.append(.structure([.string(entry.id), .string(parent), .string(entry.presentation),
                                     .string(entry.route), entry.params.dbusValue]))
            parent = entry.id
        }
        return .array(element: Signature(unchecked: "(ssssa{sv})"), nodes)
    }

    // Computed, not stored: LeakSanitizer cannot follow tagged enum payloads held in globals.
    static var routesValue: DBusValue { .array(
        element: Signature(unchecked: "(sa{sv})"),
        ["red", "orange", "yellow", "green", "blue"].map { name in
            .structure([.string(name), .dictionary(
                key: Signature(unchecked: "s"), value: Signature(unchecked: "v"),
                [DBusDictEntry(key: .string("title"), value: .variant(.string("The \(name) screen"))),
                 DBusDictEntry(key: .string("color"), value: .variant(.string(name)))])])
        } + [.structure([.string("modal"), .dictionary(
            key: Signature(unchecked: "s"), value: Signature(unchecked: "v"),
            [DBusDictEntry(key: .string("title"), value: .variant(.string("A modal")))])])]) }

    /// A rainbow state with `routes` pushed on `red` (ids are the route names plus the revision).
    static func rainbow(_ revision: UInt64, _ routes: [String] = [], modal: String? = nil) -> NavigationState {
        var path = [Entry(id: "red-1", route: "red", presentation: "root")]
        for route in routes { path.append(Entry(id: "\(route)-\(revision)", route: route, presentation: "push")) }
        if let modal { path.append(Entry(id: "modal-\(revision)", route: "modal", presentation: modal)) }
        return NavigationState(revision: revision, tab: "rainbow", path: path)
    }
}
