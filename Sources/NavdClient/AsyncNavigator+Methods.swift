import DBus

// The blocking client's methods (NavigatorClient+Methods.swift), awaited: the same arguments, replies and errors.

extension AsyncNavigator {
    /// `Push`: pushes `route` onto the top stack; returns the new revision and the screen's id.
    public func push(_ route: String, params: Params = [:]) async throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(await call(.push, [.string(route), params.dbusValue]))
    }

    /// `Pop`: pops the top screen of the top stack (`AtRoot` at its root).
    public func pop() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.pop))
    }

    /// `PopTo`: pops (and dismisses) until the screen with that id, or the nearest screen with that route, is on top.
    public func popTo(_ target: String) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.popTo, [.string(target)]))
    }

    /// `PopToRoot`: pops the top stack to its root screen.
    public func popToRoot() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.popToRoot))
    }

    /// `Replace`: swaps the screen on top of the top stack for a new one with the same presentation.
    public func replace(_ route: String, params: Params = [:]) async throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(await call(.replace, [.string(route), params.dbusValue]))
    }

    /// `SetStack`: replaces the whole top stack, root included, with new screens.
    public func setStack(_ screens: [ScreenSpec]) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.setStack, [ScreenSpec.dbusArray(screens)]))
    }

    /// `Present`: the top screen presents a layer of `style` whose root screen is `route`.
    public func present(_ route: String, params: Params = [:], style: ModalStyle) async throws(NavigatorError) -> AddedScreen {
        try await present(route, params: params, styleName: style.rawValue)
    }

    /// `Present` with a style given by name, so the daemon judges names other than `sheet` and `cover`.
    public func present(_ route: String, params: Params = [:], styleName: String) async throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(await call(.present, [.string(route), params.dbusValue, .string(styleName)]))
    }

    /// `Dismiss`: dismisses the top layer of the path (`NoModal` when there is none).
    public func dismiss() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.dismiss))
    }

    /// `DismissAll`: dismisses every layer on the path.
    public func dismissAll() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.dismissAll))
    }

    /// `Back`: pops, else dismisses the top layer, else `AtRoot`.
    public func back() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.back))
    }

    /// `SelectTab`: selects a tab (`UnknownTab`, `NotTabbed`).
    public func selectTab(_ tab: String) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.selectTab, [.string(tab)]))
    }

    /// `Open`: goes to a deep link or a named state.
    public func open(_ target: String) async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.open, [.string(target)]))
    }

    /// `Apply`: the ops in order as one change, or none of them; `expectedRevision` 0 skips the revision check.
    public func apply(_ operations: [BatchOperation], expectedRevision: UInt64 = 0) async throws(NavigatorError) -> UInt64 {
        let ops = DBusValue.array(element: WireSignature.namedDictionary, operations.map(\.dbusValue))
        return try Reply.revision(await call(.apply, [ops, .uint64(expectedRevision)]))
    }

    /// `Undo`: brings back the tree as it was before the last change, as a new revision.
    public func undo() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.undo))
    }

    /// `Redo`: re-applies what the last Undo undid.
    public func redo() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.redo))
    }
}

extension AsyncNavigator {
    /// `GetState`: the revision, the selected tab and the visible path.
    public func state() async throws(NavigatorError) -> VisibleState {
        try Reply.state(await call(.getState)[...])
    }

    /// `GetTree`: the whole tree, every tab and layer, pre-order.
    public func tree() async throws(NavigatorError) -> NavigationTree {
        try Reply.tree(await call(.getTree))
    }

    /// `GetRoutes`: the route graph, one entry per route, in the daemon's order.
    public func routes() async throws(NavigatorError) -> [RouteInfo] {
        try Reply.routes(await call(.getRoutes))
    }

    /// `History`: the newest `limit` changes, newest first.
    public func history(limit: UInt32) async throws(NavigatorError) -> [HistoryEntry] {
        try Reply.history(await call(.history, [.uint32(limit)]))
    }

    /// All of navd's properties at once (`org.freedesktop.DBus.Properties.GetAll`).
    public func properties() async throws(NavigatorError) -> NavigatorProperties {
        try Reply.properties(await call(interface: StandardInterfaces.properties.name, "GetAll",
                                  [.string(Navigator.interfaceName)]))
    }
}
