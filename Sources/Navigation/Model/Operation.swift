/// One screen to build: a route and its params as sent (SetStack's `(sa{sv})`).
public struct ScreenRequest: Hashable, Sendable {
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
public struct RawOperation: Hashable, Sendable {
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
/// The journal stores it in binary (tags in ByteCoding+Values.swift), versioned by `JournalRecord`.
public enum Operation: Hashable, Sendable {
    /// Push a screen onto the top stack.
    case push(route: String, params: InputParams)
    /// Pop the top screen of the top stack.
    case pop
    /// Pop (and dismiss layers) until the screen with that id, or the nearest with that route, is on top.
    case popTo(target: String)
    /// Pop the top stack to its root.
    case popToRoot
    /// Swap the top screen for a new one with the same presentation.
    case replace(route: String, params: InputParams)
    /// Replace the whole top stack.
    case setStack([ScreenRequest])
    /// Present a layer of `style` (`sheet`/`cover`) from the top screen.
    case present(route: String, params: InputParams, style: String)
    /// Dismiss the top layer.
    case dismiss
    /// Dismiss every layer on the path.
    case dismissAll
    /// Pop, else dismiss, else `AtRoot`.
    case back
    /// Select a tab.
    case selectTab(String)
    /// Go to a named state or deep link.
    case open(String)
    /// Several ops as one change; expected revision 0 skips the check.
    case apply([RawOperation], expectedRevision: UInt64)
    /// Bring back the tree before the last change.
    case undo
    /// Re-apply what the last undo undid.
    case redo
    /// Repairs a restored tree to fit the current graph (see `Coordinator.reconcile`); journaled so replay repeats it.
    case reconcile
    /// Report an event from a screen on the path ("" for the top); navd resolves and runs its handler.
    /// Expected revision 0 skips the check.
    case send(source: String, event: String, params: InputParams, expectedRevision: UInt64)
    /// Start a flow from the screen on top.
    case start(flow: String, params: InputParams)
    /// Finish the innermost flow enclosing the screen on top.
    case finish(output: String, params: InputParams)
    /// Set some facts, all or nothing.
    case setFacts(InputParams)
    /// Make the tree and flows what they were at a kept revision, repaired to the graph and facts; expected
    /// revision 0 skips the check (an Apply op's is 0: Apply checks its own).
    case revert(revision: UInt64, expectedRevision: UInt64)

    /// The Apply op this is (`OperationKind`); nil for apply, undo, redo and reconcile, which Apply cannot hold.
    public var kind: OperationKind? {
        switch self {
        case .push: .push
        case .pop: .pop
        case .popTo: .popTo
        case .popToRoot: .popToRoot
        case .replace: .replace
        case .setStack: .setStack
        case .present: .present
        case .dismiss: .dismiss
        case .dismissAll: .dismissAll
        case .back: .back
        case .selectTab: .selectTab
        case .open: .open
        case .send: .send
        case .start: .start
        case .finish: .finish
        case .setFacts: .setFacts
        case .revert: .revert
        case .apply, .undo, .redo, .reconcile: nil
        }
    }

    /// The lower-case method name: the change's `cause` (an Apply op's is its contract name, `popto`).
    public var cause: String {
        switch self {
        case .apply: "apply"
        case .undo: "undo"
        case .redo: "redo"
        case .reconcile: "reconcile"
        default: kind?.rawValue ?? ""
        }
    }
}
