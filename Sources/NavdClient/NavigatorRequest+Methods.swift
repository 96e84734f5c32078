import DBus

// The contract's methods as requests, one each, named as `NavigatorMethod` names them: the one place the client
// says how a method's typed arguments value (`NavigatorCall`) is made and its reply read. Adding a method to the contract adds one here; a
// test sends every method of `NavigatorMethod.all` through both clients.

extension NavigatorRequest where Reply == UInt64 {
    /// A method that answers `t revision`.
    static func revision(_ call: NavigatorCall) -> Self {
        Self(call) { values throws(DBusError) in try values[0].requiredUInt64("revision") }
    }

    /// `Pop`: pops the top screen of the top stack (`AtRoot` at its root); answers the new revision.
    public static var pop: Self { revision(.pop(NoArguments())) }

    /// `PopTo`: pops (and dismisses) until the screen with that id, or the nearest screen with that route, is on top.
    public static func popTo(_ target: String) -> Self { revision(.popTo(TargetArguments(target: target))) }

    /// `PopToRoot`: pops the top stack to its root screen.
    public static var popToRoot: Self { revision(.popToRoot(NoArguments())) }

    /// `SetStack`: replaces the whole top stack, root included, with new screens.
    public static func setStack(_ screens: [ScreenSpec]) -> Self { revision(.setStack(ScreensArguments(screens: CallScreens(screens)))) }

    /// `Dismiss`: dismisses the top layer of the path (`NoModal` when there is none).
    public static var dismiss: Self { revision(.dismiss(NoArguments())) }

    /// `DismissAll`: dismisses every layer on the path.
    public static var dismissAll: Self { revision(.dismissAll(NoArguments())) }

    /// `Back`: pops, else dismisses the top layer, else `AtRoot`.
    public static var back: Self { revision(.back(NoArguments())) }

    /// `SelectTab`: selects a tab (`UnknownTab`, `NotTabbed`).
    public static func selectTab(_ tab: String) -> Self { revision(.selectTab(TabArguments(tab: tab))) }

    /// `Open`: goes to a deep link or a named state.
    public static func open(_ target: String) -> Self { revision(.open(TargetArguments(target: target))) }

    /// `Revert`: the tree and flows of kept `revision` as one new change (facts stay); `expectedRevision` 0 skips
    /// the revision check.
    public static func revert(to revision: UInt64, expectedRevision: UInt64 = 0) -> Self {
        Self.revision(.revert(RevertArguments(revision: revision, expectedRevision: expectedRevision)))
    }

    /// `Apply`: the ops in order as one change, or none of them; `expectedRevision` 0 skips the revision check.
    public static func apply(_ operations: [BatchOperation], expectedRevision: UInt64 = 0) -> Self {
        revision(.apply(ApplyArguments(ops: CallOperations(operations), expectedRevision: expectedRevision)))
    }

    /// `Undo`: brings back the tree as it was before the last change, as a new revision.
    public static var undo: Self { revision(.undo(NoArguments())) }

    /// `Redo`: re-applies what the last Undo undid.
    public static var redo: Self { revision(.redo(NoArguments())) }

    /// `Finish`: ends the innermost flow enclosing the screen on top with `output`.
    public static func finish(_ output: String, params: Params = [:]) -> Self {
        revision(.finish(FinishArguments(output: output, params: CallParams(params))))
    }

    /// `SetFacts`: sets the given facts, all or nothing.
    public static func setFacts(_ facts: Params) -> Self { revision(.setFacts(FactsArguments(facts: CallParams(facts)))) }

    /// `Reload`: on the default navigator every route file, on an app that app's file; answers this navigator's
    /// revision after it. A file that does not load is `.remote` with `InvalidRouteFile`, whose message names
    /// each refused file as `FILE:LINE: KEY: PROBLEM`, one a line.
    public static var reload: Self { revision(.reload(NoArguments())) }
}

extension NavigatorRequest where Reply == AddedScreen {
    /// A method that answers `(t revision, s id)` for the screen it added.
    static func addedScreen(_ call: NavigatorCall) -> Self {
        Self(call) { values throws(DBusError) in
            AddedScreen(revision: try values[0].requiredUInt64("revision"), id: try values[1].requiredString("id"))
        }
    }

    /// `Push`: pushes `route` onto the top stack; answers the new revision and the screen's id.
    public static func push(_ route: String, params: Params = [:]) -> Self {
        addedScreen(.push(RouteArguments(route: route, params: CallParams(params))))
    }

    /// `Replace`: swaps the screen on top of the top stack for a new one with the same presentation.
    public static func replace(_ route: String, params: Params = [:]) -> Self {
        addedScreen(.replace(RouteArguments(route: route, params: CallParams(params))))
    }

    /// `Present`: the top screen presents a layer of `style` whose root screen is `route`.
    public static func present(_ route: String, params: Params = [:], style: ModalStyle) -> Self {
        present(route, params: params, styleName: style.rawValue)
    }

    /// `Present` with a style given by name, so the daemon judges names other than `sheet` and `cover`.
    public static func present(_ route: String, params: Params = [:], styleName: String) -> Self {
        addedScreen(.present(PresentArguments(route: route, params: CallParams(params), style: styleName)))
    }
}

extension NavigatorRequest {
    /// `GetState`: the revision, the selected tab and the visible path.
    public static var getState: NavigatorRequest<VisibleState> {
        .init(.getState(NoArguments())) { values throws(DBusError) in try VisibleState(dbusValues: values[...]) }
    }

    /// `GetTree`: the whole tree, every tab and layer, pre-order.
    public static var getTree: NavigatorRequest<NavigationTree> {
        .init(.getTree(NoArguments())) { values throws(DBusError) in
            NavigationTree(
                revision: try values[0].requiredUInt64("revision"), tab: try values[1].requiredString("tab"),
                nodes: try [Node](dbusValue: values[2]))
        }
    }

    /// `GetChanges`: the kept changes with revision ≥ `fromRevision`, oldest first, at most `limit`, each with
    /// the method, arguments and caller that made it.
    public static func getChanges(from fromRevision: UInt64 = 0, limit: UInt32 = .max) -> NavigatorRequest<[RecordedChange]> {
        .init(.getChanges(ChangesArguments(fromRevision: fromRevision, limit: limit))) { values throws(DBusError) in
            try [RecordedChange](dbusValue: values[0])
        }
    }

    /// `Export`: the recording (UTF-8 JSON, docs/devtools.md "Recordings") of the kept changes from the first at
    /// or after `fromRevision` (0: the oldest kept), param values replaced by placeholders when `redact`.
    public static func export(from fromRevision: UInt64 = 0, redact: Bool = false) -> NavigatorRequest<String> {
        .init(.export(ExportArguments(fromRevision: fromRevision, redact: redact))) { values throws(DBusError) in
            try values[0].requiredString("recording")
        }
    }

    /// `GetLimits`: the limits the navigator enforces, each by its route-file key (`max-path-depth`, …), in navd's order.
    public static var getLimits: NavigatorRequest<[(name: String, value: UInt32)]> {
        .init(.getLimits(NoArguments())) { values throws(DBusError) in
            try (values[0].dictEntries ?? []).map { entry throws(DBusError) in
                (try entry.key.requiredString("limit name"), try entry.value.requiredUInt32("limit"))
            }
        }
    }

    /// `GetTreeAt`: the tree, the facts and the flows as they were right after kept `revision` (0: the current one).
    public static func getTreeAt(_ revision: UInt64) -> NavigatorRequest<StateAtRevision> {
        .init(.getTreeAt(RevisionArguments(revision: revision))) { values throws(DBusError) in
            StateAtRevision(
                revision: try values[0].requiredUInt64("revision"), selectedTab: try values[1].requiredString("tab"),
                nodes: try [Node](dbusValue: values[2]), facts: try [String: ParamValue](dbusValue: values[3]),
                flows: try [FlowInfo](dbusValue: values[4]))
        }
    }

    /// `GetRoutes`: the route graph, one entry per route, in the daemon's order.
    public static var getRoutes: NavigatorRequest<[RouteInfo]> {
        .init(.getRoutes(NoArguments())) { values throws(DBusError) in try RouteInfo.routes(dbusValue: values[0]) }
    }

    /// `History`: the newest `limit` changes, newest first.
    public static func history(limit: UInt32) -> NavigatorRequest<[HistoryEntry]> {
        .init(.history(LimitArguments(limit: limit))) { values throws(DBusError) in try [HistoryEntry](dbusValue: values[0]) }
    }

    /// `Send`: reports `event` from the screen `source` (`""`: the top) and lets navd's handlers decide;
    /// `expectedRevision` 0 skips the revision check.
    public static func send(_ event: String, params: Params = [:], source: String = "", expectedRevision: UInt64 = 0)
        -> NavigatorRequest<EventOutcome>
    {
        .init(.send(SendArguments(source: source, event: event, params: CallParams(params), expectedRevision: expectedRevision))) {
            values throws(DBusError) in
            EventOutcome(revision: try values[0].requiredUInt64("revision"), outcome: try Outcome(dbusValue: values[1]))
        }
    }

    /// `Start`: starts `flow` from the screen on top; answers the new revision and the instance's id.
    public static func start(_ flow: String, params: Params = [:]) -> NavigatorRequest<StartedFlow> {
        .init(.start(StartArguments(flow: flow, params: CallParams(params)))) { values throws(DBusError) in
            StartedFlow(revision: try values[0].requiredUInt64("revision"), id: try values[1].requiredString("flow_id"))
        }
    }

    /// `GetFlows`: every flow instance in the tree, outer before inner.
    public static var getFlows: NavigatorRequest<[FlowInfo]> {
        .init(.getFlows(NoArguments())) { values throws(DBusError) in try [FlowInfo](dbusValue: values[0]) }
    }

    /// `GetEvents`: the events the screen `source` (`""`: the top) can send, inner scopes first.
    public static func getEvents(source: String = "") -> NavigatorRequest<[EventInfo]> {
        .init(.getEvents(SourceArguments(source: source))) { values throws(DBusError) in try [EventInfo](dbusValue: values[0]) }
    }

    /// `GetEventParams`: `getEvents`' list with the params each handler reads from the event and their types.
    public static func getEventParams(source: String = "") -> NavigatorRequest<[EventParamsInfo]> {
        .init(.getEventParams(SourceArguments(source: source))) { values throws(DBusError) in
            try [EventParamsInfo](dbusValue: values[0])
        }
    }

    /// `Resolve` of an event sent from the top screen: what `Send` would do, without doing it.
    public static func resolve(event: String, params: Params = [:]) -> NavigatorRequest<Resolution> {
        .init(.resolve(ResolveArguments(kind: "event", target: event, params: CallParams(params)))) { values throws(DBusError) in
            try Resolution(dbusValues: values)
        }
    }

    /// `Resolve` of a link or named state: what `Open` would do, without doing it.
    public static func resolve(link: String) -> NavigatorRequest<Resolution> {
        .init(.resolve(ResolveArguments(kind: "link", target: link, params: CallParams(Params())))) { values throws(DBusError) in
            try Resolution(dbusValues: values)
        }
    }

    /// Any contract method with `arguments` as given, answering the reply's values as they came (once their
    /// signature is checked): for what the typed requests cannot say, such as arguments of a wrong type on purpose.
    public static func call(_ method: NavigatorMethod, _ arguments: [DBusValue] = []) -> NavigatorRequest<[DBusValue]> {
        .init(method, arguments) { values throws(DBusError) in values }
    }
}
