import DBus
import Navigation

/// The methods of `org.navd.Navigator1`, one case each, in introspection order: a method is a case, so a
/// `switch` over the methods (the daemon's dispatch) does not compile until every method has its handler.
///
/// Calls of methods that change the tree are committed in groups before they are answered;
/// the others are answered at once.
public enum NavigatorMethod: Int, Hashable, Sendable, CaseIterable {
    case push, pop, popTo, popToRoot, replace, setStack, present, dismiss, dismissAll, back, selectTab, open, apply
    case undo, redo, getState, getTree, getRoutes, history, send, start, finish, setFacts, getFlows, getEvents
    case resolve, reload, getEventParams, getTreeAt, revert, getChanges, export, getLimits

    /// The D-Bus declaration: name, arguments, documentation.
    public var declaration: MethodDeclaration { coded.declaration }
    /// Whether a call may change the tree (and so is answered only once it is durable).
    public var changesTree: Bool { Self.specs[rawValue].changesTree }
    /// The member name, such as `Push`.
    public var name: String { Self.specs[rawValue].name }
    /// How a call of it is read into its `NavigatorCall`.
    var form: CallForm { coded.form }

    /// The method whose member name is `name`, if the contract has one.
    public init?(name: String) {
        guard let method = Self.byName[name] else { return nil }
        self = method
    }

    /// Every method, in introspection order.
    public static var all: [NavigatorMethod] { allCases }

    /// The names of the methods that may change the tree.
    public static let treeChangingNames: Set<String> = Set(allCases.filter(\.changesTree).map(\.name))

}

extension NavigatorMethod {
    static let revision: [ArgumentDeclaration] = [.init("revision", "t")]
    static let revisionAndId: [ArgumentDeclaration] = [.init("revision", "t"), .init("id", "s")]

    /// Each method's declaration, from its case.
    var spec: Spec {
        switch self {
        /// `Push(s route, a{sv} params) → (t revision, s id)`.
        case .push: Spec("Push", NavigatorCall.push, out: Self.revisionAndId, changesTree: true,
            "Push a screen onto the top stack; the route needs 'push' among its presentations.")
        /// `Pop() → t revision`.
        case .pop: Spec("Pop", NavigatorCall.pop, out: Self.revision, changesTree: true,
            "Pop the top screen of the top stack; AtRoot when that stack holds only its root.")
        /// `PopTo(s target) → t revision`.
        case .popTo: Spec("PopTo", NavigatorCall.popTo, out: Self.revision, changesTree: true,
            "Pop (and dismiss layers) until the screen with this id, or the nearest screen with this route from the top, is on top; NotFound when none on the path matches.")
        /// `PopToRoot() → t revision`.
        case .popToRoot: Spec("PopToRoot", NavigatorCall.popToRoot, out: Self.revision, changesTree: true,
            "Pop the top stack to its root screen.")
        /// `Replace(s route, a{sv} params) → (t revision, s id)`.
        case .replace: Spec("Replace", NavigatorCall.replace, out: Self.revisionAndId, changesTree: true,
            "Swap the screen on top of the top stack for a new one with the old one's presentation; its layers go with it.")
        /// `SetStack(a(sa{sv}) screens) → t revision`.
        case .setStack: Spec(
            "SetStack", NavigatorCall.setStack, out: Self.revision, changesTree: true,
            "Replace the whole top stack, root included, with new (route, params) screens.")
        /// `Present(s route, a{sv} params, s style) → (t revision, s id)`.
        case .present: Spec(
            "Present", NavigatorCall.present, out: Self.revisionAndId, changesTree: true,
            "The top screen presents a modal layer of style 'sheet' or 'cover' whose root screen is route.")
        /// `Dismiss() → t revision`.
        case .dismiss: Spec("Dismiss", NavigatorCall.dismiss, out: Self.revision, changesTree: true,
            "Dismiss the top layer of the path and anything it presented; NoModal when there is none.")
        /// `DismissAll() → t revision`.
        case .dismissAll: Spec("DismissAll", NavigatorCall.dismissAll, out: Self.revision, changesTree: true,
            "Dismiss every layer on the path.")
        /// `Back() → t revision`.
        case .back: Spec("Back", NavigatorCall.back, out: Self.revision, changesTree: true,
            "What a back button does: pop, else dismiss the top layer, else AtRoot.")
        /// `SelectTab(s tab) → t revision`.
        case .selectTab: Spec("SelectTab", NavigatorCall.selectTab, out: Self.revision, changesTree: true,
            "Select a tab; UnknownTab, or NotTabbed when the root is a single stack.")
        /// `Open(s target) → t revision`.
        case .open: Spec("Open", NavigatorCall.open, out: Self.revision, changesTree: true,
            "Go to a named state, a generic path /TAB/ROUTE;key=value/..., or a declared link pattern such as /news/{id}.")
        /// `Apply(a(sa{sv}) ops, t expected_revision) → t revision`.
        case .apply: Spec(
            "Apply", NavigatorCall.apply, out: Self.revision,
            changesTree: true,
            "Run the ops in order as one change with one signal, or none of them; expected_revision 0 skips the StaleRevision check.")
        /// `Undo() → t revision`.
        case .undo: Spec("Undo", NavigatorCall.undo, out: Self.revision, changesTree: true,
            "Bring back the whole tree as it was before the last change, as a new revision; NothingToUndo.")
        /// `Redo() → t revision`.
        case .redo: Spec("Redo", NavigatorCall.redo, out: Self.revision, changesTree: true,
            "Re-apply what the last Undo undid; NothingToRedo.")
        /// `GetState() → (t revision, s tab, a(sssa{sv}) path)`.
        case .getState: Spec(
            "GetState", NavigatorCall.getState, out: [.init("revision", "t"), .init("tab", "s"), .init("path", WireSignature.path.rawValue)],
            changesTree: false, "The selected tab ('' when not tabbed) and the visible path, bottom first.")
        /// `GetTree() → (t revision, s tab, a(ssssa{sv}) nodes)`.
        case .getTree: Spec(
            "GetTree", NavigatorCall.getTree, out: [.init("revision", "t"), .init("tab", "s"), .init("nodes", WireSignature.nodes.rawValue)],
            changesTree: false,
            "The whole tree, every tab and layer, pre-order: (id, parent_id, kind, name, params).")
        /// `GetRoutes() → a(sa{sv}) routes`.
        case .getRoutes: Spec(
            "GetRoutes", NavigatorCall.getRoutes, out: [.init("routes", WireSignature.routes.rawValue)], changesTree: false,
            "The route graph, one entry per route: title, params, required, presentations, link and display hints.")
        /// `History(u limit) → a(tsx) history`.
        case .history: Spec(
            "History", NavigatorCall.history, out: [.init("history", WireSignature.history.rawValue)], changesTree: false,
            "The newest changes, newest first: (revision, cause, time in microseconds since the epoch).")
        /// `Send(s source, s event, a{sv} params, t expected_revision) → (t revision, s outcome)`.
        case .send: Spec(
            "Send", NavigatorCall.send,
            out: [.init("revision", "t"), .init("outcome", "s")], changesTree: true,
            "Report an event from a screen on the path ('' for the top); navd runs the handler of the first scope that has one (route, enclosing flows inner first, tab, app). Outcome applied, redirected, resumed, finished or ignored; expected_revision 0 skips the StaleRevision check.")
        /// `Start(s flow, a{sv} params) → (t revision, s flow_id)`.
        case .start: Spec(
            "Start", NavigatorCall.start,
            out: [.init("revision", "t"), .init("flow_id", "s")], changesTree: true,
            "Start a flow from the screen on top: its first screen is pushed or presented as the flow declares; guards apply to it.")
        /// `Finish(s output, a{sv} params) → t revision`.
        case .finish: Spec(
            "Finish", NavigatorCall.finish, out: Self.revision,
            changesTree: true,
            "Finish the innermost flow enclosing the screen on top with one of its declared outputs; its screens go and the starter's on-output handler runs; NotInFlow when no flow encloses the top.")
        /// `SetFacts(a{sv} facts) → t revision`.
        case .setFacts: Spec(
            "SetFacts", NavigatorCall.setFacts, out: Self.revision, changesTree: true,
            "Set some declared facts, all or nothing; screens whose required facts turn false are removed in the same change. Not undone by Undo.")
        /// `GetFlows() → a(sssa{sv}) flows`.
        case .getFlows: Spec(
            "GetFlows", NavigatorCall.getFlows, out: [.init("flows", WireSignature.flows.rawValue)], changesTree: false,
            "Every flow instance in the tree, outer before inner: (flow_id, flow, first_screen_id, params).")
        /// `GetEvents(s source) → a(ss) events`.
        case .getEvents: Spec(
            "GetEvents", NavigatorCall.getEvents, out: [.init("events", WireSignature.events.rawValue)],
            changesTree: false,
            "The events that would be handled for a screen on the path ('' for the top): (event, scope), scope route, flow:NAME, tab or app, inner scopes first.")
        /// `GetEventParams(s source) → a(ssa{ss}) events`.
        case .getEventParams: Spec(
            "GetEventParams", NavigatorCall.getEventParams, out: [.init("events", WireSignature.eventsWithParams.rawValue)],
            changesTree: false,
            "GetEvents' list with the params each handler reads from the event: (event, scope, params), params mapping each name to its type (string, int, double or bool: that of the route param, flow param, output param or fact it fills), in the order the handler reads them; every one must be sent. StaleSource for a screen not on the path.")
        /// `Resolve(s kind, s target, a{sv} params) → (s outcome, t revision, s tab, a(sssa{sv}) path, as trace)`.
        case .resolve: Spec(
            "Resolve", NavigatorCall.resolve,
            out: [.init("outcome", "s"), .init("revision", "t"), .init("tab", "s"), .init("path", WireSignature.path.rawValue),
                  .init("trace", WireSignature.trace.rawValue)],
            changesTree: false,
            "A dry run: kind 'event' (target the event, from the top screen) or 'link' (target what Open accepts). The outcome, revision and path the call would give, and one trace line per step; the real call's error when it would fail. Changes nothing.")
        /// `Reload() → t revision`.
        case .reload: Spec(
            "Reload", NavigatorCall.reload, out: Self.revision, changesTree: false,
            "Read the route file again (on the default object: every route file, apps appearing and going with their files; on an app object: that app's file) and repair the tree to fit, as one 'reconcile' revision when anything changed. A file that does not load is refused as a whole with InvalidRouteFile (FILE:LINE: KEY: PROBLEM) and its app keeps its graph. Answers the revision after it (on the default object: the default navigator's).")
        /// `GetTreeAt(t revision) → (t revision, s tab, a(ssssa{sv}) nodes, a{sv} facts, a(sssa{sv}) flows)`.
        case .getTreeAt: Spec(
            "GetTreeAt", NavigatorCall.getTreeAt,
            out: [.init("revision", "t"), .init("tab", "s"), .init("nodes", WireSignature.nodes.rawValue),
                  .init("facts", WireSignature.params.rawValue), .init("flows", WireSignature.flows.rawValue)],
            changesTree: false,
            "The tree (as GetTree), the facts and the flows (as GetFlows) as they were right after a kept revision: the current one (0 also means it), every revision History lists, and the one before the oldest of those; RevisionNotKept names the kept range otherwise. Changes nothing.")
        /// `Revert(t revision, t expected_revision) → t revision`.
        case .revert: Spec(
            "Revert", NavigatorCall.revert, out: Self.revision, changesTree: true,
            "Make the tree (stacks, layers, screens with their ids, selected tab) and the flow instances what they were at a kept revision, as one undoable change with cause 'revert', repaired to the current route graph and facts as Undo repairs; facts are not reverted. RevisionNotKept, then StaleRevision (expected_revision 0 skips it); a Revert that changes nothing is a no-op.")
        /// `GetChanges(t from_revision, u limit) → a(tsxsa{sv}) changes`.
        case .getChanges: Spec(
            "GetChanges", NavigatorCall.getChanges,
            out: [.init("changes", WireSignature.changes.rawValue)], changesTree: false,
            "The kept changes (those History lists) with revision >= from_revision, oldest first, at most limit: (revision, cause, time in microseconds since the epoch, method, details). method is the D-Bus method that made the change, '' for a reconcile. details: args (av, the call's arguments), sender (s), uid and pid (u, from the bus), command (s, the caller's process name), for Send event, source and outcome, for reconcile reason (start or reload), always tab and top (after the change). Changes nothing.")
        /// `Export(t from_revision, b redact) → s recording`.
        case .export: Spec(
            "Export", NavigatorCall.export, out: [.init("recording", "s")],
            changesTree: false,
            "The recording (UTF-8 JSON, navd-recording version 1) of the kept changes from from_revision (0: from the oldest History lists) to the current revision: the route graph, the state the first started from, and each change's request, caller and visible result. redact replaces every param value by a placeholder of the same type and drops the callers. RevisionNotKept when no kept change at or after from_revision can be exported. Changes nothing.")
        /// `GetLimits() → a{su} limits`.
        case .getLimits: Spec(
            "GetLimits", NavigatorCall.getLimits, out: [.init("limits", "a{su}")], changesTree: false,
            "The limits this navigator enforces, each by its route-file key (max-path-depth, max-stack-depth, max-params-bytes, max-apply-ops, max-string-bytes, max-undo, max-history): the default, the route file's limits: over it, navd's options over both. A call over one of the first five is answered LimitExceeded. Changes nothing.")
        }
    }
}

/// A call of a method of `org.navd.Navigator1` with its arguments as one typed value (NavigatorCall+Arguments.swift),
/// one case per `NavigatorMethod`: what the daemon's handlers receive and what the clients' requests build. The
/// method's declaration takes its arguments from the case's value (`NavigatorMethod`'s spec names the case), so the
/// introspection, the daemon's decoding and the clients' encoding cannot disagree.
public enum NavigatorCall: Hashable, Sendable {
    case push(RouteArguments), pop(NoArguments), popTo(TargetArguments), popToRoot(NoArguments), replace(RouteArguments)
    case setStack(ScreensArguments), present(PresentArguments), dismiss(NoArguments), dismissAll(NoArguments)
    case back(NoArguments), selectTab(TabArguments), open(TargetArguments), apply(ApplyArguments), undo(NoArguments)
    case redo(NoArguments), getState(NoArguments), getTree(NoArguments), getRoutes(NoArguments), history(LimitArguments)
    case send(SendArguments), start(StartArguments), finish(FinishArguments), setFacts(FactsArguments)
    case getFlows(NoArguments), getEvents(SourceArguments), resolve(ResolveArguments), reload(NoArguments)
    case getEventParams(SourceArguments), getTreeAt(RevisionArguments), revert(RevertArguments)
    case getChanges(ChangesArguments), export(ExportArguments), getLimits(NoArguments)

    /// The method and its arguments value.
    var parts: (method: NavigatorMethod, arguments: any MethodArguments) {
        switch self {
        case .push(let arguments): (.push, arguments)
        case .pop(let arguments): (.pop, arguments)
        case .popTo(let arguments): (.popTo, arguments)
        case .popToRoot(let arguments): (.popToRoot, arguments)
        case .replace(let arguments): (.replace, arguments)
        case .setStack(let arguments): (.setStack, arguments)
        case .present(let arguments): (.present, arguments)
        case .dismiss(let arguments): (.dismiss, arguments)
        case .dismissAll(let arguments): (.dismissAll, arguments)
        case .back(let arguments): (.back, arguments)
        case .selectTab(let arguments): (.selectTab, arguments)
        case .open(let arguments): (.open, arguments)
        case .apply(let arguments): (.apply, arguments)
        case .undo(let arguments): (.undo, arguments)
        case .redo(let arguments): (.redo, arguments)
        case .getState(let arguments): (.getState, arguments)
        case .getTree(let arguments): (.getTree, arguments)
        case .getRoutes(let arguments): (.getRoutes, arguments)
        case .history(let arguments): (.history, arguments)
        case .send(let arguments): (.send, arguments)
        case .start(let arguments): (.start, arguments)
        case .finish(let arguments): (.finish, arguments)
        case .setFacts(let arguments): (.setFacts, arguments)
        case .getFlows(let arguments): (.getFlows, arguments)
        case .getEvents(let arguments): (.getEvents, arguments)
        case .resolve(let arguments): (.resolve, arguments)
        case .reload(let arguments): (.reload, arguments)
        case .getEventParams(let arguments): (.getEventParams, arguments)
        case .getTreeAt(let arguments): (.getTreeAt, arguments)
        case .revert(let arguments): (.revert, arguments)
        case .getChanges(let arguments): (.getChanges, arguments)
        case .export(let arguments): (.export, arguments)
        case .getLimits(let arguments): (.getLimits, arguments)
        }
    }
}

extension NavigatorCall {
    /// What the call asks of the navigator (`CallMeaning`), one case per method.
    public var meaning: CallMeaning {
        switch self {
        case .push(let call): .change(.push(route: call.route, params: call.params.reading), reply: .revisionAndId)
        case .pop: .change(.pop, reply: .revision)
        case .popTo(let call): .change(.popTo(target: call.target), reply: .revision)
        case .popToRoot: .change(.popToRoot, reply: .revision)
        case .replace(let call): .change(.replace(route: call.route, params: call.params.reading), reply: .revisionAndId)
        case .setStack(let call): .change(.setStack(call.screens.reading), reply: .revision)
        case .present(let call):
            .change(.present(route: call.route, params: call.params.reading, style: call.style), reply: .revisionAndId)
        case .dismiss: .change(.dismiss, reply: .revision)
        case .dismissAll: .change(.dismissAll, reply: .revision)
        case .back: .change(.back, reply: .revision)
        case .selectTab(let call): .change(.selectTab(call.tab), reply: .revision)
        case .open(let call): .change(.open(call.target), reply: .revision)
        case .apply(let call): .change(.apply(call.ops.reading, expectedRevision: call.expectedRevision), reply: .revision)
        case .undo: .change(.undo, reply: .revision)
        case .redo: .change(.redo, reply: .revision)
        case .send(let call):
            .change(
                .send(source: call.source, event: call.event, params: call.params.reading, expectedRevision: call.expectedRevision),
                reply: .revisionAndOutcome)
        case .start(let call): .change(.start(flow: call.flow, params: call.params.reading), reply: .revisionAndFlowId)
        case .finish(let call): .change(.finish(output: call.output, params: call.params.reading), reply: .revision)
        case .setFacts(let call): .change(.setFacts(call.facts.reading), reply: .revision)
        case .revert(let call): .change(.revert(revision: call.revision, expectedRevision: call.expectedRevision), reply: .revision)
        case .getState: .reading { [.uint64($0.revision), .string($0.selectedTab), $0.path.dbusValue] }
        case .getTree: .reading { [.uint64($0.revision), .string($0.selectedTab), $0.nodes.dbusValue] }
        case .getRoutes:
            .reading { coordinator in
                let graph = coordinator.graph
                return [RouteInfo.dbusValue(routes: graph.routeOrder.compactMap { graph.routes[$0].map(RouteInfo.init) })]
            }
        case .history(let call): .reading { [$0.history(limit: Int(call.limit)).dbusValue] }
        case .getFlows: .reading { [$0.flows.dbusValue] }
        case .getEvents(let call): .reading { coordinator throws(DBusError) in
            [try refusing { () throws(NavigationError) in try coordinator.events(source: call.source).dbusValue }]
        }
        case .getEventParams(let call): .reading { coordinator throws(DBusError) in
            [try refusing { () throws(NavigationError) in try coordinator.eventParams(source: call.source).dbusValue }]
        }
        case .resolve(let call): .reading { coordinator throws(DBusError) in
            let request: ResolveRequest
            switch call.kind {
            case "event": request = .event(call.target, params: call.params.reading)
            case "link": request = .link(call.target)
            default:
                throw .invalidArgs("Resolve's kind is 'event' (target: an event) or 'link' (target: what Open accepts), not '\(call.kind)'")
            }
            return try refusing { () throws(NavigationError) in try coordinator.resolve(request).dbusValues }
        }
        case .getTreeAt(let call): .reading { coordinator throws(DBusError) in
            let kept = try refusing { () throws(NavigationError) in try coordinator.state(at: call.revision) }
            return [
                .uint64(kept.revision), .string(kept.selectedTab), kept.nodes.dbusValue, kept.facts.dbusValue, kept.flows.dbusValue,
            ]
        }
        case .getLimits: .reading { coordinator in
            [.dictionary(key: .string, value: .uint32, coordinator.graph.limits.named.map {
                DBusDictEntry(key: .string($0.name), value: .uint32(UInt32(clamping: $0.value)))
            })]
        }
        case .reload, .getChanges, .export: .service
        }
    }
}
