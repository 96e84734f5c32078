// The ops of `OperationDeclaration.all` as typed values, named as the client's requests are: an app writes
// `try await navigator.send(.apply([.push("news-item", params: ["id": .int(7)]), .send("next")]))`. A test
// checks that each is accepted by the table and that together they cover it.

extension BatchOperation {
    /// `push`: pushes `route` onto the top stack.
    public static func push(_ route: String, params: Params = [:]) -> BatchOperation {
        BatchOperation(checked: .push, [.route: .string(route)].withParams(params))
    }

    /// `pop`: pops the top screen of the top stack.
    public static let pop = BatchOperation(checked: .pop, [:])

    /// `popto`: pops until the screen with that id, or the nearest with that route, is on top.
    public static func popTo(_ target: String) -> BatchOperation {
        BatchOperation(checked: .popTo, [.target: .string(target)])
    }

    /// `poptoroot`: pops the top stack to its root.
    public static let popToRoot = BatchOperation(checked: .popToRoot, [:])

    /// `replace`: swaps the screen on top for a new one.
    public static func replace(_ route: String, params: Params = [:]) -> BatchOperation {
        BatchOperation(checked: .replace, [.route: .string(route)].withParams(params))
    }

    /// `setstack`: replaces the whole top stack.
    public static func setStack(_ screens: [ScreenSpec]) -> BatchOperation {
        BatchOperation(checked: .setStack, [.screens: .screens(screens)])
    }

    /// `present`: presents a layer of `style` whose root screen is `route`.
    public static func present(_ route: String, params: Params = [:], style: ModalStyle) -> BatchOperation {
        BatchOperation(checked: .present, [.route: .string(route), .style: .string(style.rawValue)].withParams(params))
    }

    /// `dismiss`: dismisses the top layer.
    public static let dismiss = BatchOperation(checked: .dismiss, [:])

    /// `dismissall`: dismisses every layer on the path.
    public static let dismissAll = BatchOperation(checked: .dismissAll, [:])

    /// `back`: pops, else dismisses, else `AtRoot`.
    public static let back = BatchOperation(checked: .back, [:])

    /// `selecttab`: selects a tab.
    public static func selectTab(_ tab: String) -> BatchOperation {
        BatchOperation(checked: .selectTab, [.tab: .string(tab)])
    }

    /// `open`: goes to a deep link or a named state.
    public static func open(_ target: String) -> BatchOperation {
        BatchOperation(checked: .open, [.target: .string(target)])
    }

    /// `send`: reports `event` from the screen `source` (`""`: the top, as when it is left out).
    public static func send(_ event: String, params: Params = [:], source: String = "") -> BatchOperation {
        var arguments: [OperationKey: BatchArgument] = [.event: .string(event)]
        if !source.isEmpty { arguments[.source] = .string(source) }
        return BatchOperation(checked: .send, arguments.withParams(params))
    }

    /// `start`: starts `flow` from the screen on top.
    public static func start(_ flow: String, params: Params = [:]) -> BatchOperation {
        BatchOperation(checked: .start, [.flow: .string(flow)].withParams(params))
    }

    /// `finish`: ends the innermost flow around the screen on top with `output`.
    public static func finish(_ output: String, params: Params = [:]) -> BatchOperation {
        BatchOperation(checked: .finish, [.output: .string(output)].withParams(params))
    }

    /// `setfacts`: sets the given facts.
    public static func setFacts(_ facts: Params) -> BatchOperation {
        BatchOperation(checked: .setFacts, [.facts: .params(facts)])
    }

    /// `revert`: the tree and flows of kept `revision` (facts stay).
    public static func revert(to revision: UInt64) -> BatchOperation {
        BatchOperation(checked: .revert, [.revision: .revision(revision)])
    }
}

extension Dictionary where Key == OperationKey, Value == BatchArgument {
    /// The arguments with `params` added when there are any (left out, the daemon reads `{}`).
    fileprivate func withParams(_ params: Params) -> Self {
        var arguments = self
        if !params.isEmpty { arguments[.params] = .params(params) }
        return arguments
    }
}
