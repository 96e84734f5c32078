import DBus
import Navigation

extension Navigator {
    /// `StackChanged(t revision, s cause, s tab, a(sssa{sv}) path)`.
    public static let stackChanged = SignalDeclaration(
        "StackChanged",
        [.init("revision", "t"), .init("cause", "s"), .init("tab", "s"), .init("path", WireSignature.path.rawValue)],
        documentation: "Emitted once per change, after it is durable, and once at start-up with cause 'restore' or 'start'. A revision that jumps by more than one means a missed signal: call GetState."
    )

    /// Writes `StackChanged`'s body straight from the path: the bytes its declared arguments marshal to, with no
    /// value tree.
    public static func writeStackChanged(revision: UInt64, cause: String, tab: String, path: [Entry], into body: inout BodyWriter) {
        body.uint64(revision)
        body.string(cause)
        body.string(tab)
        Entry.write(path: path, into: &body)
    }

    /// `StackChanged`'s cause in navd's start-up signal when the state was brought back from disk.
    public static let restoreCause = "restore"
    /// `StackChanged`'s cause in navd's start-up signal when the tree is a fresh one.
    public static let startCause = "start"

    /// Whether `cause` is a start-up signal's (`restore` or `start`): navd, or an app's navigator, (re)started
    /// and announces the state it serves, whatever revision it had before.
    public static func isStartupCause(_ cause: String) -> Bool {
        cause == restoreCause || cause == startCause
    }

    /// `FlowFinished(t revision, s flow_id, s flow, s output, a{sv} params)`.
    public static let flowFinished = SignalDeclaration(
        "FlowFinished",
        [.init("revision", "t"), .init("flow_id", "s"), .init("flow", "s"), .init("output", "s"),
         .init("params", WireSignature.params.rawValue)],
        documentation: "Emitted after a change's StackChanged for each flow instance the change ended: finished ones first, in the order they finished, with their output and its params, then abandoned ones with output ''."
    )

    /// `org.navd.Navigator1`, declared once: dispatch, signature checks, introspection, properties,
    /// the client's calls and the checked-in `dbus/org.navd.Navigator1.xml` all derive from it.
    public static let interface = InterfaceDeclaration(
        name: interfaceName,
        methods: NavigatorMethod.all.map(\.declaration),
        signals: [stackChanged, flowFinished],
        properties: NavigatorProperty.allCases.map(\.declaration),
        documentation: "navd's navigation coordinator: one tree of tabs, stacks and modal layers, validated against a route graph, kept durable, announced with StackChanged."
    )

    /// The introspection document navd serves for its default object (ObjectManager and the
    /// `apps` child node included), byte for byte: what
    /// `navd --print-introspection` prints and `dbus/org.navd.Navigator1.xml` holds.
    public static func introspectionDocument() -> String {
        let server = ObjectServer()
        server.addObjectManager(at: objectPath)
        server.addNode(appsPath)
        server.export(
            objectPath, interface: interface,
            implementation: InterfaceImplementation(methods: [:], getProperty: { _ in nil }, setProperty: nil))
        return server.introspectionXML(for: objectPath)
    }
}
