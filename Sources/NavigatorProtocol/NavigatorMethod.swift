import DBus
import Synchronization

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

    private static let specs: [Spec] = allCases.map(\.spec)
    private static let byName: [String: NavigatorMethod] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// A method's name, out-arguments, documentation and whether it changes the tree, written once per case in
    /// `spec`; its in-arguments come from its case's arguments value, read only when first needed (`coded`).
    private struct Spec {
        let name: String
        let outArguments: [ArgumentDeclaration]
        let changesTree: Bool
        let documentation: String
        let makeForm: @Sendable () -> CallForm

        /// `call` is the method's case of `NavigatorCall`: its arguments value declares the in-arguments.
        init<Arguments: MethodArguments>(
            _ name: String, _ call: @escaping @Sendable (Arguments) -> NavigatorCall, out outArguments: [ArgumentDeclaration],
            changesTree: Bool, _ documentation: String
        ) {
            self.name = name
            self.outArguments = outArguments
            self.changesTree = changesTree
            self.documentation = documentation
            makeForm = { CallForm(call) }
        }
    }

    /// A method's form and full declaration, made on first use, one method at a time: making an arguments
    /// value's coding instantiates its key paths and generic metadata, which for all 33 methods at once was a
    /// tenth of a cold `navctl push`'s CPU, and navctl needs one.
    private struct Coded: Sendable {
        let form: CallForm
        let declaration: MethodDeclaration
    }

    private static let codedCache = Mutex<[Coded?]>(Array(repeating: nil, count: allCases.count))

    private var coded: Coded {
        if let known = Self.codedCache.withLock({ $0[rawValue] }) { return known }
        let spec = Self.specs[rawValue]
        let form = spec.makeForm()
        let made = Coded(
            form: form,
            declaration: MethodDeclaration(spec.name, in: form.declarations, out: spec.outArguments, documentation: spec.documentation))
        Self.codedCache.withLock { $0[rawValue] = made }
        return made
    }
}

extension NavigatorMethod {
    private static let revision: [ArgumentDeclaration] = [.init("revision", "t")]
    private static let revisionAndId: [ArgumentDeclaration] = [.init("revision", "t"), .init("id", "s")]

    /// Each method's declaration, from its case.
    private var spec: Spec {
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
