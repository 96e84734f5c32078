/// Why an operation was refused; one case per error of the contract. The state is unchanged.
public enum NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownRoute(String)
    case invalidParams(String)
    case atRoot(String)
    case notFound(String)
    case noModal(String)
    case unknownTab(String)
    case notTabbed(String)
    case notPresentable(String)
    case badTarget(String)
    case staleRevision(String)
    case invalidOperation(String)
    case limitExceeded(String)
    case nothingToUndo(String)
    case nothingToRedo(String)

    /// The contract's short error name ("UnknownRoute", …); the daemon prefixes `org.navd.Navigator1.Error.`.
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
        }
    }

    /// A sentence a person can act on, such as "route 'news-item' needs param 'id' (int)".
    public var message: String {
        switch self {
        case .unknownRoute(let text), .invalidParams(let text), .atRoot(let text), .notFound(let text),
            .noModal(let text), .unknownTab(let text), .notTabbed(let text), .notPresentable(let text),
            .badTarget(let text), .staleRevision(let text), .invalidOperation(let text), .limitExceeded(let text),
            .nothingToUndo(let text), .nothingToRedo(let text):
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
        }
    }
}
