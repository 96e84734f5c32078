/// One screen to build: a route and its params as sent (SetStack's `(sa{sv})`).
public struct ScreenRequest: Hashable, Sendable, Codable {
    /// The route name.
    public var route: String
    /// The params as sent, unchecked.
    public var params: InputParams

    /// A request for a `route` screen with `params`.
    public init(route: String, params: InputParams = [:]) {
        self.route = route
        self.params = params
    }
}

/// One Apply op as sent: `(sa{sv})`, an operation name and its arguments.
public struct RawOperation: Hashable, Sendable, Codable {
    /// The lower-case method name (`push`, `popto`, …).
    public var name: String
    /// The arguments by the contract's names (`route`, `params`, `target`, `style`, `tab`, `screens`).
    public var arguments: [String: InputValue]

    /// An op named `name` with `arguments`.
    public init(name: String, arguments: [String: InputValue] = [:]) {
        self.name = name
        self.arguments = arguments
    }
}

/// A request to change the tree: one per mutating method of the contract.
///
/// Its Codable form (the journal's) uses stable string tags and is versioned by `JournalRecord`.
public enum Operation: Hashable, Sendable {
    case push(route: String, params: InputParams)
    case pop
    case popTo(target: String)
    case popToRoot
    case replace(route: String, params: InputParams)
    case setStack([ScreenRequest])
    case present(route: String, params: InputParams, style: String)
    case dismiss
    case dismissAll
    case back
    case selectTab(String)
    case open(String)
    case apply([RawOperation], expectedRevision: UInt64)
    case undo
    case redo
    /// Repairs a restored tree to fit the current graph (see `Coordinator.reconcile`); journaled so replay repeats it.
    case reconcile

    /// The lower-case method name: the change's `cause` and the journal's tag.
    public var cause: String {
        switch self {
        case .push: "push"
        case .pop: "pop"
        case .popTo: "popto"
        case .popToRoot: "poptoroot"
        case .replace: "replace"
        case .setStack: "setstack"
        case .present: "present"
        case .dismiss: "dismiss"
        case .dismissAll: "dismissall"
        case .back: "back"
        case .selectTab: "selecttab"
        case .open: "open"
        case .apply: "apply"
        case .undo: "undo"
        case .redo: "redo"
        case .reconcile: "reconcile"
        }
    }
}
