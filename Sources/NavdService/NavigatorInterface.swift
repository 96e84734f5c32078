import DBus

/// The names of navd's public contract (`shared/design/dbus-api.md`), in one place.
public enum Navigator {
    /// The well-known bus name navd owns.
    public static let busName = "org.navd.Navigator1"
    /// The one object navd exports.
    public static let objectPath = ObjectPath(unchecked: "/org/navd/Navigator1")
    /// The interface name.
    public static let interfaceName = "org.navd.Navigator1"
    /// The prefix of every navd error name.
    public static let errorPrefix = "org.navd.Navigator1.Error."
    /// navd's version, served as the `Version` property and printed by `navd --version`.
    public static let version = "0.1.0"

    /// The methods that may change the tree: their calls are committed in groups before they are answered.
    public static let mutatingMethods: Set<String> = [
        "Push", "Pop", "PopTo", "PopToRoot", "Replace", "SetStack", "Present", "Dismiss",
        "DismissAll", "Back", "SelectTab", "Open", "Apply", "Undo", "Redo",
    ]

    /// Signature of one Entry of the path.
    static let entrySignature = "(sssa{sv})"
    /// Signature of one Node of the tree.
    static let nodeSignature = "(ssssa{sv})"

    /// `org.navd.Navigator1`, declared once: dispatch, introspection, properties and the
    /// checked-in `dbus/org.navd.Navigator1.xml` all derive from this value.
    public static let interface = InterfaceDeclaration(
        name: interfaceName,
        methods: methods,
        signals: [
            SignalDeclaration(
                "StackChanged",
                [
                    .init("revision", "t"), .init("cause", "s"), .init("tab", "s"), .init("path", "a(sssa{sv})"),
                ],
                documentation: "Emitted once per change, after it is durable, and once at start-up with cause 'restore' or 'start'. A revision that jumps by more than one means a missed signal: call GetState."
            ),
        ],
        properties: properties,
        documentation: "navd's navigation coordinator: one tree of tabs, stacks and modal layers, validated against a route graph, kept durable, announced with StackChanged."
    )

    private static func method(
        _ name: String, in inArgs: [ArgumentDeclaration] = [], out outArgs: [ArgumentDeclaration], _ doc: String
    ) -> MethodDeclaration {
        MethodDeclaration(name, in: inArgs, out: outArgs, documentation: doc)
    }

    private static let revisionOut: [ArgumentDeclaration] = [.init("revision", "t")]
    private static let revisionAndId: [ArgumentDeclaration] = [.init("revision", "t"), .init("id", "s")]

    private static let methods: [MethodDeclaration] = [
        method("Push", in: [.init("route", "s"), .init("params", "a{sv}")], out: revisionAndId,
               "Push a screen onto the top stack; the route needs 'push' among its presentations."),
        method("Pop", out: revisionOut, "Pop the top screen of the top stack; AtRoot when that stack holds only its root."),
        method("PopTo", in: [.init("target", "s")], out: revisionOut,
               "Pop (and dismiss layers) until the screen with this id, or the nearest screen with this route from the top, is on top; NotFound when none on the path matches."),
        method("PopToRoot", out: revisionOut, "Pop the top stack to its root screen."),
        method("Replace", in: [.init("route", "s"), .init("params", "a{sv}")], out: revisionAndId,
               "Swap the screen on top of the top stack for a new one with the old one's presentation; its layers go with it."),
        method("SetStack", in: [.init("screens", "a(sa{sv})")], out: revisionOut,
               "Replace the whole top stack, root included, with new (route, params) screens."),
        method("Present", in: [.init("route", "s"), .init("params", "a{sv}"), .init("style", "s")], out: revisionAndId,
               "The top screen presents a modal layer of style 'sheet' or 'cover' whose root screen is route."),
        method("Dismiss", out: revisionOut, "Dismiss the top layer of the path and anything it presented; NoModal when there is none."),
        method("DismissAll", out: revisionOut, "Dismiss every layer on the path."),
        method("Back", out: revisionOut, "What a back button does: pop, else dismiss the top layer, else AtRoot."),
        method("SelectTab", in: [.init("tab", "s")], out: revisionOut, "Select a tab; UnknownTab, or NotTabbed when the root is a single stack."),
        method("Open", in: [.init("target", "s")], out: revisionOut,
               "Go to a named state, a generic path /TAB/ROUTE;key=value/..., or a declared link pattern such as /news/{id}."),
        method("Apply", in: [.init("ops", "a(sa{sv})"), .init("expected_revision", "t")], out: revisionOut,
               "Run the ops in order as one change with one signal, or none of them; expected_revision 0 skips the StaleRevision check."),
        method("Undo", out: revisionOut, "Bring back the whole tree as it was before the last change, as a new revision; NothingToUndo."),
        method("Redo", out: revisionOut, "Re-apply what the last Undo undid; NothingToRedo."),
        method("GetState", out: [.init("revision", "t"), .init("tab", "s"), .init("path", "a(sssa{sv})")],
               "The selected tab ('' when not tabbed) and the visible path, bottom first."),
        method("GetTree", out: [.init("revision", "t"), .init("tab", "s"), .init("nodes", "a(ssssa{sv})")],
               "The whole tree, every tab and layer, pre-order: (id, parent_id, kind, name, params)."),
        method("GetRoutes", out: [.init("routes", "a(sa{sv})")],
               "The route graph, one entry per route: title, params, required, presentations, link and display hints."),
        method("History", in: [.init("limit", "u")], out: [.init("history", "a(tsx)")],
               "The newest changes, newest first: (revision, cause, time in microseconds since the epoch)."),
    ]

    private static func property(_ name: String, _ signature: String, _ doc: String) -> PropertyDeclaration {
        PropertyDeclaration(name, signature, access: .read, emitsChangedSignal: true, documentation: doc)
    }

    private static let properties: [PropertyDeclaration] = [
        property("Revision", "t", "The current revision."),
        property("Depth", "u", "The number of entries in the path."),
        property("Top", "s", "The route of the screen on top."),
        property("TopId", "s", "The id of the screen on top."),
        property("SelectedTab", "s", "The selected tab, '' when not tabbed."),
        property("Tabs", "as", "The tab names in order, empty when not tabbed."),
        property("CanUndo", "b", "Whether Undo would succeed."),
        property("CanRedo", "b", "Whether Redo would succeed."),
        property("States", "a{ss}", "The named states and the links they stand for."),
        property("Version", "s", "navd's version."),
    ]
}

extension Navigator {
    /// The introspection document navd serves for `/org/navd/Navigator1`, byte for byte: what
    /// `navd --print-introspection` prints and `dbus/org.navd.Navigator1.xml` holds.
    public static func introspectionDocument() -> String {
        let server = ObjectServer()
        server.export(objectPath, interface: interface, implementation: InterfaceImplementation(methods: [:], getProperty: { _ in nil }, setProperty: nil))
        return server.introspectionXML(for: objectPath)
    }
}
