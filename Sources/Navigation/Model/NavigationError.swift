/// Why an operation was refused; one case per error of the contract. The state is unchanged.
public enum NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No route of that name in the graph.
    case unknownRoute(String)
    /// Params don't match the route's declaration, or an empty SetStack.
    case invalidParams(String)
    /// Nothing to pop or go back to.
    case atRoot(String)
    /// PopTo found no matching screen on the path.
    case notFound(String)
    /// Dismiss with no layer on the path.
    case noModal(String)
    /// A tab that does not exist.
    case unknownTab(String)
    /// A tab was named but the app is a single stack.
    case notTabbed(String)
    /// The route may not be shown that way, or an unknown style.
    case notPresentable(String)
    /// Open's target is neither a state nor a valid link.
    case badTarget(String)
    /// Apply's expected revision is not the current one.
    case staleRevision(String)
    /// Apply names an unknown operation or lacks or mistypes an argument.
    case invalidOperation(String)
    /// A limit of the contract's table (sizes, depths, op count).
    case limitExceeded(String)
    /// Undo with an empty undo list.
    case nothingToUndo(String)
    /// Redo with an empty redo list.
    case nothingToRedo(String)
    /// No scope handles the event from that source.
    case unhandledEvent(String)
    /// The source screen is not on the path (popped, or in another tab).
    case staleSource(String)
    /// No flow of that name.
    case unknownFlow(String)
    /// The flow declares no such output.
    case unknownOutput(String)
    /// Finish with no enclosing flow.
    case notInFlow(String)
    /// No fact of that name.
    case unknownFact(String)
    /// A required fact is false and no guard redirects (or the guard flow needs it too).
    case guardFailed(String)
    /// A redirect while the guard's flow already encloses the top screen.
    case guardLoop(String)

    /// The contract's short error name ("UnknownRoute", …); the daemon prefixes the contract's error prefix.
    public var name: String {
        switch self {
        case .unknownRoute: "UnknownRoute"
        case .invalidParams: "InvalidParams"
        case .atRoot: "AtRoot"
        case .notFound: "NotFound"
        case .noModal: "NoModal"
        case .unknownTab: "UnknownTab"
        case .notTabbed: "NotTabbed"
        case .notPresentable: "NotPresentable"
        case .badTarget: "BadTarget"
        case .staleRevision: "StaleRevision"
        case .invalidOperation: "InvalidOperation"
        case .limitExceeded: "LimitExceeded"
        case .nothingToUndo: "NothingToUndo"
        case .nothingToRedo: "NothingToRedo"
        case .unhandledEvent: "UnhandledEvent"
        case .staleSource: "StaleSource"
        case .unknownFlow: "UnknownFlow"
        case .unknownOutput: "UnknownOutput"
        case .notInFlow: "NotInFlow"
        case .unknownFact: "UnknownFact"
        case .guardFailed: "GuardFailed"
        case .guardLoop: "GuardLoop"
        }
    }

    /// A sentence a person can act on, such as "route 'news-item' needs param 'id' (int)".
    public var message: String {
        switch self {
        case .unknownRoute(let text), .invalidParams(let text), .atRoot(let text), .notFound(let text),
            .noModal(let text), .unknownTab(let text), .notTabbed(let text), .notPresentable(let text),
            .badTarget(let text), .staleRevision(let text), .invalidOperation(let text), .limitExceeded(let text),
            .nothingToUndo(let text), .nothingToRedo(let text), .unhandledEvent(let text), .staleSource(let text),
            .unknownFlow(let text), .unknownOutput(let text), .notInFlow(let text), .unknownFact(let text),
            .guardFailed(let text), .guardLoop(let text):
            text
        }
    }

    /// "Name: message".
    public var description: String { "\(name): \(message)" }

    /// The same error with `prefix` in front of its message (Apply's "op 2: ").
    func prefixed(_ prefix: String) -> NavigationError {
        let text = prefix + message
        switch self {
        case .unknownRoute: return .unknownRoute(text)
        case .invalidParams: return .invalidParams(text)
        case .atRoot: return .atRoot(text)
        case .notFound: return .notFound(text)
        case .noModal: return .noModal(text)
        case .unknownTab: return .unknownTab(text)
        case .notTabbed: return .notTabbed(text)
        case .notPresentable: return .notPresentable(text)
        case .badTarget: return .badTarget(text)
        case .staleRevision: return .staleRevision(text)
        case .invalidOperation: return .invalidOperation(text)
        case .limitExceeded: return .limitExceeded(text)
        case .nothingToUndo: return .nothingToUndo(text)
        case .nothingToRedo: return .nothingToRedo(text)
        case .unhandledEvent: return .unhandledEvent(text)
        case .staleSource: return .staleSource(text)
        case .unknownFlow: return .unknownFlow(text)
        case .unknownOutput: return .unknownOutput(text)
        case .notInFlow: return .notInFlow(text)
        case .unknownFact: return .unknownFact(text)
        case .guardFailed: return .guardFailed(text)
        case .guardLoop: return .guardLoop(text)
        }
    }
}
