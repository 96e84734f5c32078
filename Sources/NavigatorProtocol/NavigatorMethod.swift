import DBus

/// One method of `org.navd.Navigator1`: its declaration and whether it may change the tree.
///
/// Calls of methods that change the tree are committed in groups before they are answered;
/// the others are answered at once.
public struct NavigatorMethod: Hashable, Sendable {
    /// The D-Bus declaration: name, arguments, documentation.
    public let declaration: MethodDeclaration
    /// Whether a call may change the tree (and so is answered only once it is durable).
    public let changesTree: Bool

    /// The member name, such as `Push`.
    public var name: String { declaration.name }

    init(_ name: String, in inArguments: [ArgumentDeclaration] = [], out outArguments: [ArgumentDeclaration],
         changesTree: Bool, _ documentation: String) {
        declaration = MethodDeclaration(name, in: inArguments, out: outArguments, documentation: documentation)
        self.changesTree = changesTree
    }
}

extension NavigatorMethod {
    private static let revision: [ArgumentDeclaration] = [.init("revision", "t")]
    private static let revisionAndId: [ArgumentDeclaration] = [.init("revision", "t"), .init("id", "s")]
    private static let routeAndParams: [ArgumentDeclaration] = [
        .init("route", "s"), .init("params", WireSignature.params.rawValue),
    ]

    /// `Push(s route, a{sv} params) → (t revision, s id)`.
    public static let push = NavigatorMethod("Push", in: routeAndParams, out: revisionAndId, changesTree: true,
        "Push a screen onto the top stack; the route needs 'push' among its presentations.")
    /// `Pop() → t revision`.
    public static let pop = NavigatorMethod("Pop", out: revision, changesTree: true,
        "Pop the top screen of the top stack; AtRoot when that stack holds only its root.")
    /// `PopTo(s target) → t revision`.
    public static let popTo = NavigatorMethod("PopTo", in: [.init("target", "s")], out: revision, changesTree: true,
        "Pop (and dismiss layers) until the screen with this id, or the nearest screen with this route from the top, is on top; NotFound when none on the path matches.")
    /// `PopToRoot() → t revision`.
    public static let popToRoot = NavigatorMethod("PopToRoot", out: revision, changesTree: true,
        "Pop the top stack to its root screen.")
    /// `Replace(s route, a{sv} params) → (t revision, s id)`.
    public static let replace = NavigatorMethod("Replace", in: routeAndParams, out: revisionAndId, changesTree: true,
        "Swap the screen on top of the top stack for a new one with the old one's presentation; its layers go with it.")
    /// `SetStack(a(sa{sv}) screens) → t revision`.
    public static let setStack = NavigatorMethod(
        "SetStack", in: [.init("screens", WireSignature.screens.rawValue)], out: revision, changesTree: true,
        "Replace the whole top stack, root included, with new (route, params) screens.")
    /// `Present(s route, a{sv} params, s style) → (t revision, s id)`.
    public static let present = NavigatorMethod(
        "Present", in: routeAndParams + [.init("style", "s")], out: revisionAndId, changesTree: true,
        "The top screen presents a modal layer of style 'sheet' or 'cover' whose root screen is route.")
    /// `Dismiss() → t revision`.
    public static let dismiss = NavigatorMethod("Dismiss", out: revision, changesTree: true,
        "Dismiss the top layer of the path and anything it presented; NoModal when there is none.")
    /// `DismissAll() → t revision`.
    public static let dismissAll = NavigatorMethod("DismissAll", out: revision, changesTree: true,
        "Dismiss every layer on the path.")
    /// `Back() → t revision`.
    public static let back = NavigatorMethod("Back", out: revision, changesTree: true,
        "What a back button does: pop, else dismiss the top layer, else AtRoot.")
    /// `SelectTab(s tab) → t revision`.
    public static let selectTab = NavigatorMethod("SelectTab", in: [.init("tab", "s")], out: revision, changesTree: true,
        "Select a tab; UnknownTab, or NotTabbed when the root is a single stack.")
    /// `Open(s target) → t revision`.
    public static let open = NavigatorMethod("Open", in: [.init("target", "s")], out: revision, changesTree: true,
        "Go to a named state, a generic path /TAB/ROUTE;key=value/..., or a declared link pattern such as /news/{id}.")
    /// `Apply(a(sa{sv}) ops, t expected_revision) → t revision`.
    public static let apply = NavigatorMethod(
        "Apply", in: [.init("ops", WireSignature.operations.rawValue), .init("expected_revision", "t")], out: revision,
        changesTree: true,
        "Run the ops in order as one change with one signal, or none of them; expected_revision 0 skips the StaleRevision check.")
    /// `Undo() → t revision`.
    public static let undo = NavigatorMethod("Undo", out: revision, changesTree: true,
        "Bring back the whole tree as it was before the last change, as a new revision; NothingToUndo.")
    /// `Redo() → t revision`.
    public static let redo = NavigatorMethod("Redo", out: revision, changesTree: true,
        "Re-apply what the last Undo undid; NothingToRedo.")
    /// `GetState() → (t revision, s tab, a(sssa{sv}) path)`.
    public static let getState = NavigatorMethod(
        "GetState", out: [.init("revision", "t"), .init("tab", "s"), .init("path", WireSignature.path.rawValue)],
        changesTree: false, "The selected tab ('' when not tabbed) and the visible path, bottom first.")
    /// `GetTree() → (t revision, s tab, a(ssssa{sv}) nodes)`.
    public static let getTree = NavigatorMethod(
        "GetTree", out: [.init("revision", "t"), .init("tab", "s"), .init("nodes", WireSignature.nodes.rawValue)],
        changesTree: false,
        "The whole tree, every tab and layer, pre-order: (id, parent_id, kind, name, params).")
    /// `GetRoutes() → a(sa{sv}) routes`.
    public static let getRoutes = NavigatorMethod(
        "GetRoutes", out: [.init("routes", WireSignature.routes.rawValue)], changesTree: false,
        "The route graph, one entry per route: title, params, required, presentations, link and display hints.")
    /// `History(u limit) → a(tsx) history`.
    public static let history = NavigatorMethod(
        "History", in: [.init("limit", "u")], out: [.init("history", WireSignature.history.rawValue)], changesTree: false,
        "The newest changes, newest first: (revision, cause, time in microseconds since the epoch).")

    /// `Send(s source, s event, a{sv} params, t expected_revision) → (t revision, s outcome)`.
    public static let send = NavigatorMethod(
        "Send",
        in: [.init("source", "s"), .init("event", "s"), .init("params", WireSignature.params.rawValue),
             .init("expected_revision", "t")],
        out: [.init("revision", "t"), .init("outcome", "s")], changesTree: true,
        "Report an event from a screen on the path ('' for the top); navd runs the handler of the first scope that has one (route, enclosing flows inner first, tab, app). Outcome applied, redirected, resumed, finished or ignored; expected_revision 0 skips the StaleRevision check.")
    /// `Start(s flow, a{sv} params) → (t revision, s flow_id)`.
    public static let start = NavigatorMethod(
        "Start", in: [.init("flow", "s"), .init("params", WireSignature.params.rawValue)],
        out: [.init("revision", "t"), .init("flow_id", "s")], changesTree: true,
        "Start a flow from the screen on top: its first screen is pushed or presented as the flow declares; guards apply to it.")
    /// `Finish(s output, a{sv} params) → t revision`.
    public static let finish = NavigatorMethod(
        "Finish", in: [.init("output", "s"), .init("params", WireSignature.params.rawValue)], out: revision,
        changesTree: true,
        "Finish the innermost flow enclosing the screen on top with one of its declared outputs; its screens go and the starter's on-output handler runs; NotInFlow when no flow encloses the top.")
    /// `SetFacts(a{sv} facts) → t revision`.
    public static let setFacts = NavigatorMethod(
        "SetFacts", in: [.init("facts", WireSignature.params.rawValue)], out: revision, changesTree: true,
        "Set some declared facts, all or nothing; screens whose required facts turn false are removed in the same change. Not undone by Undo.")
    /// `GetFlows() → a(sssa{sv}) flows`.
    public static let getFlows = NavigatorMethod(
        "GetFlows", out: [.init("flows", WireSignature.flows.rawValue)], changesTree: false,
        "Every flow instance in the tree, outer before inner: (flow_id, flow, first_screen_id, params).")
    /// `GetEvents(s source) → a(ss) events`.
    public static let getEvents = NavigatorMethod(
        "GetEvents", in: [.init("source", "s")], out: [.init("events", WireSignature.events.rawValue)],
        changesTree: false,
        "The events that would be handled for a screen on the path ('' for the top): (event, scope), scope route, flow:NAME, tab or app, inner scopes first.")
    /// `GetEventParams(s source) → a(ssa{ss}) events`.
    public static let getEventParams = NavigatorMethod(
        "GetEventParams", in: [.init("source", "s")], out: [.init("events", WireSignature.eventsWithParams.rawValue)],
        changesTree: false,
        "GetEvents' list with the params each handler reads from the event: (event, scope, params), params mapping each name to its type (string, int, double or bool: that of the route param, flow param, output param or fact it fills), in the order the handler reads them; every one must be sent. StaleSource for a screen not on the path.")
    /// `Resolve(s kind, s target, a{sv} params) → (s outcome, t revision, s tab, a(sssa{sv}) path, as trace)`.
    public static let resolve = NavigatorMethod(
        "Resolve", in: [.init("kind", "s"), .init("target", "s"), .init("params", WireSignature.params.rawValue)],
        out: [.init("outcome", "s"), .init("revision", "t"), .init("tab", "s"), .init("path", WireSignature.path.rawValue),
              .init("trace", WireSignature.trace.rawValue)],
        changesTree: false,
        "A dry run: kind 'event' (target the event, from the top screen) or 'link' (target what Open accepts). The outcome, revision and path the call would give, and one trace line per step; the real call's error when it would fail. Changes nothing.")

    /// `Reload() → t revision`.
    public static let reload = NavigatorMethod(
        "Reload", out: revision, changesTree: false,
        "Read the route file again (on the default object: every route file, apps appearing and going with their files; on an app object: that app's file) and repair the tree to fit, as one 'reconcile' revision when anything changed. A file that does not load is refused as a whole with InvalidRouteFile (FILE:LINE: KEY: PROBLEM) and its app keeps its graph. Answers the revision after it (on the default object: the default navigator's).")

    /// Every method, in introspection order.
    public static let all: [NavigatorMethod] = [
        push, pop, popTo, popToRoot, replace, setStack, present, dismiss, dismissAll, back, selectTab, open, apply,
        undo, redo, getState, getTree, getRoutes, history, send, start, finish, setFacts, getFlows, getEvents, resolve,
        reload, getEventParams,
    ]

    /// The names of the methods that may change the tree.
    public static let treeChangingNames: Set<String> = Set(all.filter(\.changesTree).map(\.name))
}
