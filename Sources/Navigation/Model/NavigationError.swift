/// Why an operation was refused: its kind (one per error of the contract) and a sentence a person can act on.
/// The state is unchanged.
public struct NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of refusal. The raw value is the error's name, which the model's own sentences quote (a
    /// dropped request's note, a replay's reason) and the contract's error names are made of.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// No route of that name in the graph.
        case unknownRoute = "UnknownRoute"
        /// Params don't match the route's declaration, or an empty SetStack.
        case invalidParams = "InvalidParams"
        /// Nothing to pop or go back to.
        case atRoot = "AtRoot"
        /// PopTo found no matching screen on the path.
        case notFound = "NotFound"
        /// Dismiss with no layer on the path.
        case noModal = "NoModal"
        /// A tab that does not exist.
        case unknownTab = "UnknownTab"
        /// A tab was named but the app is a single stack.
        case notTabbed = "NotTabbed"
        /// The route may not be shown that way, or an unknown style.
        case notPresentable = "NotPresentable"
        /// Open's target is neither a state nor a valid link.
        case badTarget = "BadTarget"
        /// Apply's expected revision is not the current one.
        case staleRevision = "StaleRevision"
        /// Apply names an unknown operation or lacks or mistypes an argument.
        case invalidOperation = "InvalidOperation"
        /// A limit of the contract's table (sizes, depths, op count).
        case limitExceeded = "LimitExceeded"
        /// Undo with an empty undo list.
        case nothingToUndo = "NothingToUndo"
        /// Redo with an empty redo list.
        case nothingToRedo = "NothingToRedo"
        /// No scope handles the event from that source.
        case unhandledEvent = "UnhandledEvent"
        /// The source screen is not on the path (popped, or in another tab).
        case staleSource = "StaleSource"
        /// No flow of that name.
        case unknownFlow = "UnknownFlow"
        /// The flow declares no such output.
        case unknownOutput = "UnknownOutput"
        /// Finish with no enclosing flow.
        case notInFlow = "NotInFlow"
        /// No fact of that name.
        case unknownFact = "UnknownFact"
        /// A required fact is false and no guard redirects (or the guard flow needs it too).
        case guardFailed = "GuardFailed"
        /// A redirect while the guard's flow already encloses the top screen.
        case guardLoop = "GuardLoop"
        /// GetTreeAt or Revert named a revision the navigator does not keep.
        case revisionNotKept = "RevisionNotKept"
    }

    /// What kind of refusal it is.
    public let kind: Kind
    /// A sentence a person can act on, such as "route 'news-item' needs param 'id' (int)".
    public let message: String

    /// A refusal of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The error's name ("UnknownRoute", …).
    public var name: String { kind.rawValue }

    /// "Name: message".
    public var description: String { "\(name): \(message)" }

    /// The same error with `prefix` in front of its message (Apply's "op 2: ").
    func prefixed(_ prefix: String) -> NavigationError { NavigationError(kind, prefix + message) }
}

// One way to write each refusal, `throw .unknownRoute("…")`, as where the model throws it.
extension NavigationError {
    /// No route of that name in the graph.
    public static func unknownRoute(_ message: String) -> Self { Self(.unknownRoute, message) }
    /// Params don't match the route's declaration, or an empty SetStack.
    public static func invalidParams(_ message: String) -> Self { Self(.invalidParams, message) }
    /// Nothing to pop or go back to.
    public static func atRoot(_ message: String) -> Self { Self(.atRoot, message) }
    /// PopTo found no matching screen on the path.
    public static func notFound(_ message: String) -> Self { Self(.notFound, message) }
    /// Dismiss with no layer on the path.
    public static func noModal(_ message: String) -> Self { Self(.noModal, message) }
    /// A tab that does not exist.
    public static func unknownTab(_ message: String) -> Self { Self(.unknownTab, message) }
    /// A tab was named but the app is a single stack.
    public static func notTabbed(_ message: String) -> Self { Self(.notTabbed, message) }
    /// The route may not be shown that way, or an unknown style.
    public static func notPresentable(_ message: String) -> Self { Self(.notPresentable, message) }
    /// Open's target is neither a state nor a valid link.
    public static func badTarget(_ message: String) -> Self { Self(.badTarget, message) }
    /// Apply's expected revision is not the current one.
    public static func staleRevision(_ message: String) -> Self { Self(.staleRevision, message) }
    /// Apply names an unknown operation or lacks or mistypes an argument.
    public static func invalidOperation(_ message: String) -> Self { Self(.invalidOperation, message) }
    /// A limit of the contract's table (sizes, depths, op count).
    public static func limitExceeded(_ message: String) -> Self { Self(.limitExceeded, message) }
    /// Undo with an empty undo list.
    public static func nothingToUndo(_ message: String) -> Self { Self(.nothingToUndo, message) }
    /// Redo with an empty redo list.
    public static func nothingToRedo(_ message: String) -> Self { Self(.nothingToRedo, message) }
    /// No scope handles the event from that source.
    public static func unhandledEvent(_ message: String) -> Self { Self(.unhandledEvent, message) }
    /// The source screen is not on the path (popped, or in another tab).
    public static func staleSource(_ message: String) -> Self { Self(.staleSource, message) }
    /// No flow of that name.
    public static func unknownFlow(_ message: String) -> Self { Self(.unknownFlow, message) }
    /// The flow declares no such output.
    public static func unknownOutput(_ message: String) -> Self { Self(.unknownOutput, message) }
    /// Finish with no enclosing flow.
    public static func notInFlow(_ message: String) -> Self { Self(.notInFlow, message) }
    /// No fact of that name.
    public static func unknownFact(_ message: String) -> Self { Self(.unknownFact, message) }
    /// A required fact is false and no guard redirects (or the guard flow needs it too).
    public static func guardFailed(_ message: String) -> Self { Self(.guardFailed, message) }
    /// A redirect while the guard's flow already encloses the top screen.
    public static func guardLoop(_ message: String) -> Self { Self(.guardLoop, message) }
    /// GetTreeAt or Revert named a revision the navigator does not keep.
    public static func revisionNotKept(_ message: String) -> Self { Self(.revisionNotKept, message) }
}
