import DBus

extension NavigatorClient {
    /// `Push`: pushes `route` onto the top stack; returns the new revision and the screen's id.
    public func push(_ route: String, params: Params = [:]) throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(call(.push, [.string(route), params.dbusValue]))
    }

    /// `Pop`: pops the top screen of the top stack (`AtRoot` at its root).
    public func pop() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.pop))
    }

    /// `PopTo`: pops (and dismisses) until the screen with that id, or the nearest screen with that route, is on top.
    public func popTo(_ target: String) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.popTo, [.string(target)]))
    }

    /// `PopToRoot`: pops the top stack to its root screen.
    public func popToRoot() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.popToRoot))
    }

    /// `Replace`: swaps the screen on top of the top stack for a new one with the same presentation.
    public func replace(_ route: String, params: Params = [:]) throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(call(.replace, [.string(route), params.dbusValue]))
    }

    /// `SetStack`: replaces the whole top stack, root included, with new screens.
    public func setStack(_ screens: [ScreenSpec]) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.setStack, [ScreenSpec.dbusArray(screens)]))
    }

    /// `Present`: the top screen presents a layer of `style` whose root screen is `route`.
    public func present(_ route: String, params: Params = [:], style: ModalStyle) throws(NavigatorError) -> AddedScreen {
        try present(route, params: params, styleName: style.rawValue)
    }

    /// `Present` with a style given by name, so the daemon judges names other than `sheet` and `cover`.
    public func present(_ route: String, params: Params = [:], styleName: String) throws(NavigatorError) -> AddedScreen {
        try Reply.addedScreen(call(.present, [.string(route), params.dbusValue, .string(styleName)]))
    }

    /// `Dismiss`: dismisses the top layer of the path (`NoModal` when there is none).
    public func dismiss() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.dismiss))
    }

    /// `DismissAll`: dismisses every layer on the path.
    public func dismissAll() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.dismissAll))
    }

    /// `Back`: pops, else dismisses the top layer, else `AtRoot`.
    public func back() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.back))
    }

    /// `SelectTab`: selects a tab (`UnknownTab`, `NotTabbed`).
    public func selectTab(_ tab: String) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.selectTab, [.string(tab)]))
    }

    /// `Open`: goes to a deep link or a named state.
    public func open(_ target: String) throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.open, [.string(target)]))
    }

    /// `Apply`: the ops in order as one change, or none of them; `expectedRevision` 0 skips the revision check.
    public func apply(_ operations: [BatchOperation], expectedRevision: UInt64 = 0) throws(NavigatorError) -> UInt64 {
        let ops = DBusValue.array(element: WireSignature.namedDictionary, operations.map(\.dbusValue))
        return try Reply.revision(call(.apply, [ops, .uint64(expectedRevision)]))
    }

    /// `Undo`: brings back the tree as it was before the last change, as a new revision.
    public func undo() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.undo))
    }

    /// `Redo`: re-applies what the last Undo undid.
    public func redo() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.redo))
    }
}

extension NavigatorClient {
    /// `GetState`: the revision, the selected tab and the visible path.
    public func state() throws(NavigatorError) -> VisibleState {
        try Reply.state(call(.getState)[...])
    }

    /// `GetTree`: the whole tree, every tab and layer, pre-order.
    public func tree() throws(NavigatorError) -> NavigationTree {
        try Reply.tree(call(.getTree))
    }

    /// `GetRoutes`: the route graph, one entry per route, in the daemon's order.
    public func routes() throws(NavigatorError) -> [RouteInfo] {
        try Reply.routes(call(.getRoutes))
    }

    /// `History`: the newest `limit` changes, newest first.
    public func history(limit: UInt32) throws(NavigatorError) -> [HistoryEntry] {
        try Reply.history(call(.history, [.uint32(limit)]))
    }

    /// All of navd's properties at once (`org.freedesktop.DBus.Properties.GetAll`).
    public func properties() throws(NavigatorError) -> NavigatorProperties {
        try Reply.properties(call(interface: StandardInterfaces.properties.name, "GetAll",
                                  [.string(Navigator.interfaceName)]))
    }
}
