import DBus
import Navigation

/// navd's error names, `org.navd.Navigator1.Error.<Name>`: one per kind of refusal of the model (its name
/// is the kind's, `NavigationError.Kind`), plus `StorageFailed` and `InvalidRouteFile`, the daemon's own.
/// Clients compare a reply's error name with `fullName`; nothing else spells them.
public struct NavigatorErrorName: Hashable, Sendable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The short name, such as `AtRoot`.
    public let rawValue: String

    /// The name of a refusal of the model of `kind`.
    public init(_ kind: NavigationError.Kind) { rawValue = kind.rawValue }

    /// The name of a refusal of the model, by its kind.
    public init(_ error: NavigationError) { self.init(error.kind) }

    /// One of navd's names, nil for any other text.
    public init?(rawValue: String) {
        guard Self.names.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(daemon name: String) { rawValue = name }

    /// The change could not be committed to disk; nothing changed.
    public static let storageFailed = NavigatorErrorName(daemon: "StorageFailed")
    /// `Reload` refused a route file that does not load (each as `FILE:LINE: KEY: PROBLEM`); that
    /// app keeps its graph and nothing of it changed.
    public static let invalidRouteFile = NavigatorErrorName(daemon: "InvalidRouteFile")

    /// Every name: the model's refusals in their order, then the daemon's own.
    public static let allCases: [NavigatorErrorName] = NavigationError.Kind.allCases.map(Self.init) + [storageFailed, invalidRouteFile]
    private static let names = Set(allCases.map(\.rawValue))

    /// The full D-Bus error name, such as `org.navd.Navigator1.Error.AtRoot`.
    public var fullName: String { Navigator.errorPrefix + rawValue }

    /// The short name.
    public var description: String { rawValue }

    /// The name of a full D-Bus error name, nil when it is not one of navd's.
    public init?(fullName: String) {
        guard fullName.hasPrefix(Navigator.errorPrefix) else { return nil }
        self.init(rawValue: String(fullName.dropFirst(Navigator.errorPrefix.count)))
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
