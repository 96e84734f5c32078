import DBus

/// Why a call to navd failed: navd refused it, or navd could not be reached at all.
public enum NavigatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// navd (or the bus on its behalf, for a wrong signature) answered with a D-Bus error;
    /// for navd's own refusals `name` is `Navigator.errorPrefix` + a `NavigatorErrorName`. Nothing changed.
    case remote(name: String, message: String)
    /// The bus or navd could not be reached (no bus, navd not running, no reply in time);
    /// `bus` says which bus was tried.
    case unreachable(bus: String, reason: String)
    /// navd (or the bus) answered `method`, but not in the shape the contract promises: `expected` says what
    /// the method's declaration allows, `received` what came. Never read as a default value instead.
    case unexpectedReply(method: String, expected: String, received: String)

    /// D-Bus error names that mean "nobody answered" rather than "navd said no".
    public static let transportErrorNames: Set<String> = [
        DBusErrorName.serviceUnknown, DBusErrorName.nameHasNoOwner, DBusErrorName.noReply, DBusErrorName.timeout,
        DBusErrorName.timedOut, DBusErrorName.disconnected, DBusErrorName.noServer, DBusErrorName.noNetwork,
        DBusErrorName.fileNotFound, DBusErrorName.badAddress, DBusErrorName.addressInUse,
        DBusErrorName.limitsExceeded, DBusErrorName.noMemory, DBusErrorName.ioError,
    ]

    /// Sorts a D-Bus error from a call into `.remote` or `.unreachable`.
    public init(callError error: DBusError, bus: String) {
        if Self.transportErrorNames.contains(error.name) || error.name.hasPrefix(DBusErrorName.spawnPrefix) {
            self = .unreachable(bus: bus, reason: error.message.isEmpty ? error.name : error.message)
        } else {
            self = .remote(name: error.name, message: error.message)
        }
    }

    /// navd's refusal by its typed name (`NavigatorErrorName(.atRoot)`, `.storageFailed`): nil for any other error
    /// (the bus' own, such as a wrong signature or access denied; navd unreachable; an unexpected reply).
    public var errorName: NavigatorErrorName? {
        guard case .remote(let name, _) = self else { return nil }
        return NavigatorErrorName(fullName: name)
    }

    /// Whether navd refused the call as the model refuses `kind` (`error.isRefusal(.atRoot)`).
    public func isRefusal(_ kind: NavigationError.Kind) -> Bool { errorName == NavigatorErrorName(kind) }

    /// The error's name without navd's prefix (`InvalidParams`), or the full name for other errors.
    public var shortName: String? {
        guard case .remote(let name, _) = self else { return nil }
        return errorName?.rawValue ?? name
    }

    /// One line for people: the message and, for a refusal, the error name in brackets.
    public var description: String {
        switch self {
        case .remote(let name, let message): return "\(message.isEmpty ? name : message) [\(name)]"
        case .unreachable(let bus, let reason): return "navd unreachable on \(bus): \(reason)"
        case .unexpectedReply(let method, let expected, let received):
            return "unexpected reply from navd to \(method): expected \(expected), received \(received)"
        }
    }
}
