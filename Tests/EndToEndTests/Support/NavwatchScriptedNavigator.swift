import DBus
import NavigatorProtocol
import Foundation
import NavdClient
import TestSupport
import Testing

/// A process-local peer that owns navd's bus name on a private bus and sends the StackChanged
/// signals a test scripts, so navwatch can be shown what a real navd never does on purpose:
/// a revision that jumps (a missed signal), a stale signal, a daemon vanishing mid-stream.
///
/// It answers GetState, GetTree, GetRoutes and every property from the state the test set, Push with the
/// reply the test set (changing nothing), and counts GetState calls. Everything else about navd is tested against the real daemon.
final class NavwatchScriptedNavigator: @unchecked Sendable {
    let connection: Connection
    let server = ObjectServer()
    let loop: ServiceLoop
    private let lock = NSLock()
    private var current: VisibleState
    private var stateCalls = 0
    private var pushAnswer: (revision: UInt64, id: String) = (1, "pushed-1")
    private var treeFails = false
    /// What the `Tabs` property answers.
    let tabs: [String]

    static let path = Navigator.objectPath
    /// navd's interface, served in part: the calls it does not answer get UnknownMethod.
    static let declaration = Navigator.interface

    /// Takes the name on `bus` and starts answering with `state` (and `tabs` for the property).
    init(bus: PrivateBus, state: VisibleState, tabs: [String] = ["rainbow", "news"]) throws {
        current = state
        self.tabs = tabs
        connection = try Connection(.address(bus.address))
        loop = ServiceLoop(connection: connection, server: server)
        server.export(Self.path, interface: Self.declaration, implementation: InterfaceImplementation(
            methods: [
                // weak: the server (owned by self) keeps these closures; a strong capture would be
                // a retain cycle that LeakSanitizer reports.
                NavigatorMethod.getState.name: { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let state = lock.withLock { stateCalls += 1; return current }
                    return [.uint64(state.revision), .string(state.tab), Self.pathValue(state.path)]
                },
                NavigatorMethod.getTree.name: { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let (state, fails) = lock.withLock { (current, treeFails) }
                    if fails { throw DBusError.failed("the scripted navigator fails GetTree") }
                    return [.uint64(state.revision), .string(state.tab), Self.treeValue(state)]
                },
                NavigatorMethod.getRoutes.name: { _ in [Self.routesValue] },
                NavigatorMethod.push.name: { [weak self] _ in
                    guard let self else { throw DBusError.failed("the scripted navigator is gone") }
                    let answer = lock.withLock { pushAnswer }
                    return [.uint64(answer.revision), .string(answer.id)]
                },
            ],
            getProperty: { [weak self] name in
                guard let self, let property = NavigatorProperty(rawValue: name) else { return nil }
                return Self.value(of: property, state: lock.withLock { current }, tabs: tabs)
            }))
        try connection.requestName(Navigator.busName)
        loop.start()
    }

    deinit { stop() }

    /// How many GetState calls it answered.
    var getStateCalls: Int { lock.withLock { stateCalls } }

    /// Sets what GetState answers from now on.
    func setState(_ state: VisibleState) { lock.withLock { current = state } }

    /// Sets what Push answers from now on (the state stays as it is).
    /// Makes GetTree fail (as when navd goes between a GetState and a GetTree) while GetState still answers.
    func failGetTree() { lock.withLock { treeFails = true } }

    func setPushAnswer(revision: UInt64, id: String) { lock.withLock { pushAnswer = (revision, id) } }

    /// Sends `StackChanged(revision, cause, tab, path)` for `state` (and makes it current unless told not to).
    func emit(_ cause: String, _ state: VisibleState, makeCurrent: Bool = true) throws {
        if makeCurrent { setState(state) }
        try loop.perform { [self] in
            let signal = try server.signal(Self.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name, [
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

    static func pathValue(_ path: [Entry]) -> DBusValue { path.dbusValue }

    /// Every property as navd would serve it for `state` (the client reads them all or none).
    static func value(of property: NavigatorProperty, state: VisibleState, tabs: [String]) -> DBusValue {
        switch property {
        case .revision: .uint64(state.revision)
        case .depth: .uint32(UInt32(state.path.count))
        case .top: .string(state.top?.route ?? "")
        case .topID: .string(state.top?.id ?? "")
        case .selectedTab: .string(state.tab)
        case .tabs: .stringArray(tabs)
        case .canUndo, .canRedo: .boolean(false)
        case .states: .stringDictionary([])
        case .version: .string(Navigator.version)
        case .facts: Params().dbusValue
        case .access: Navigator.accessValue(nil)
        case .backTarget: BackTarget.dbusValue(state.path.dropLast().last.map { BackTarget(id: $0.id, route: $0.route, presentation: $0.presentation) })
        }
    }

    static func treeValue(_ state: VisibleState) -> DBusValue {
        var nodes = [Node(id: "tab-1", parentID: "", kind: .tab, name: state.tab)]
        var parent = "tab-1"
        for entry in state.path {
            nodes.append(Node(id: entry.id, parentID: parent, kind: NodeKind(entry.presentation), name: entry.route, params: entry.params))
            parent = entry.id
        }
        return nodes.dbusValue
    }

    // Computed, not stored: LeakSanitizer cannot follow tagged enum payloads held in globals.
    static var routesValue: DBusValue {
        RouteInfo.dbusValue(routes: ["red", "orange", "yellow", "green", "blue"].map { name in
            RouteInfo(name: name, title: "The \(name) screen", hints: ["color": .string(name)])
        } + [RouteInfo(name: "modal", title: "A modal")])
    }

    /// A rainbow state with `routes` pushed on `red` (ids are the route names plus the revision).
    static func rainbow(_ revision: UInt64, _ routes: [String] = [], modal: Presentation? = nil) -> VisibleState {
        var path = [Entry(id: "red-1", route: "red", presentation: .root)]
        for route in routes { path.append(Entry(id: "\(route)-\(revision)", route: route, presentation: .push)) }
        if let modal { path.append(Entry(id: "modal-\(revision)", route: "modal", presentation: modal)) }
        return VisibleState(revision: revision, tab: "rainbow", path: path)
    }
}

/// The scripted peer, as the tests that script it call it.
typealias Peer = NavwatchScriptedNavigator

extension NavwatchScriptedNavigator {
    /// Runs `body` with a fresh private bus and a scripted navigator on it that starts at `state`; stops the
    /// bus afterwards.
    static func onPrivateBus(_ state: VisibleState, _ body: (PrivateBus, NavwatchScriptedNavigator) throws -> Void)
        throws
    {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try body(bus, try NavwatchScriptedNavigator(bus: bus, state: state))
    }

    /// Runs `body` with a scripted navigator at `rainbow(1)` on a fresh private bus and `navwatch --lines`
    /// following it, once navwatch has printed that first state; stops the bus afterwards.
    static func watchedFromRevision1(_ body: (NavwatchScriptedNavigator, ChildProcess) throws -> Void) throws {
        try onPrivateBus(rainbow(1)) { bus, peer in
            let watch = try startNavwatch(["--lines"], bus: bus)
            #expect(watch.waitForLines(1) == ["1 state rainbow: red"])
            try body(peer, watch)
        }
    }
}
