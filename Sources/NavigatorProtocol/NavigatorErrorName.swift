import DBus
import Navigation

/// navd's error names, `org.navd.Navigator1.Error.<Name>`: one case per refusal of the model,
/// plus `StorageFailed` for a change that could not be made durable.
public enum NavigatorErrorName: String, Hashable, Sendable, CaseIterable {
    case unknownRoute = "UnknownRoute"
    case invalidParams = "InvalidParams"
    case atRoot = "AtRoot"
    case notFound = "NotFound"
    case noModal = "NoModal"
    case unknownTab = "UnknownTab"
    case notTabbed = "NotTabbed"
    case notPresentable = "NotPresentable"
    case badTarget = "BadTarget"
    case staleRevision = "StaleRevision"
    case invalidOperation = "InvalidOperation"
    case limitExceeded = "LimitExceeded"
    case nothingToUndo = "NothingToUndo"
    case nothingToRedo = "NothingToRedo"
    case unhandledEvent = "UnhandledEvent"
    case staleSource = "StaleSource"
    case unknownFlow = "UnknownFlow"
    case unknownOutput = "UnknownOutput"
    case notInFlow = "NotInFlow"
    case unknownFact = "UnknownFact"
    case guardFailed = "GuardFailed"
    case guardLoop = "GuardLoop"
    /// The change could not be committed to disk; nothing changed.
    case storageFailed = "StorageFailed"
    /// `Reload` refused a route file that does not load (each as `FILE:LINE: KEY: PROBLEM`); that
    /// app keeps its graph and nothing of it changed.
    case invalidRouteFile = "InvalidRouteFile"

    /// The full D-Bus error name, such as `org.navd.Navigator1.Error.AtRoot`.
    public var fullName: String { Navigator.errorPrefix + rawValue }

    /// The name of a full D-Bus error name, nil when it is not one of navd's.
    public init?(fullName: String) {
        guard fullName.hasPrefix(Navigator.errorPrefix) else { return nil }
        self.init(rawValue: String(fullName.dropFirst(Navigator.errorPrefix.count)))
    }

    /// The name of a refusal of the model, case by case.
    public init(_ error: NavigationError) {
        switch error {
        case .unknownRoute: self = .unknownRoute
        case .invalidParams: self = .invalidParams
        case .atRoot: self = .atRoot
        case .notFound: self = .notFound
        case .noModal: self = .noModal
        case .unknownTab: self = .unknownTab
        case .notTabbed: self = .notTabbed
        case .notPresentable: self = .notPresentable
        case .badTarget: self = .badTarget
        case .staleRevision: self = .staleRevision
        case .invalidOperation: self = .invalidOperation
        case .limitExceeded: self = .limitExceeded
        case .nothingToUndo: self = .nothingToUndo
        case .nothingToRedo: self = .nothingToRedo
        case .unhandledEvent: self = .unhandledEvent
        case .staleSource: self = .staleSource
        case .unknownFlow: self = .unknownFlow
        case .unknownOutput: self = .unknownOutput
        case .notInFlow: self = .notInFlow
        case .unknownFact: self = .unknownFact
        case .guardFailed: self = .guardFailed
        case .guardLoop: self = .guardLoop
        }
    }

    /// A D-Bus error of this name with `message`.
    public func error(_ message: String) -> DBusError {
        DBusError(name: fullName, message: message)
    }
}

extension DBusError {
    /// The D-Bus error navd answers for a refusal of the model: its name and its message.
    public init(_ error: NavigationError) {
        self.init(name: NavigatorErrorName(error).fullName, message: error.message)
    }
}
