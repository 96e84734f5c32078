import DBus

/// Why a call to navd failed: navd refused it, or navd could not be reached at all.
public enum NavigatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// navd (or the bus on its behalf, for a wrong signature) answered with a D-Bus error;
    /// for navd's own refusals `name` is `Navigator.errorPrefix` + a `NavigatorErrorName`. Nothing changed.
    case remote(name: String, message: String)
    /// The bus or navd could not be reached (no bus, navd not running, no reply in time);
    /// `bus` says which bus was tried.
    case unreachable(bus: String, reason: String)
    /// navd answered, but not in the shape the contract promises.
    case unexpectedReply(String)

    /// D-Bus error names that mean "nobody answered" rather than "navd said no".
    public static let transportErrorNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.NoReply",
        "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut",
        "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.NoNetwork",
        "org.freedesktop.DBus.Error.FileNotFound",
        "org.freedesktop.DBus.Error.BadAddress",
        "org.freedesktop.DBus.Error.AddressInUse",
        "org.freedesktop.DBus.Error.LimitsExceeded",
        "org.freedesktop.DBus.Error.NoMemory",
        "org.freedesktop.DBus.Error.IOError",
    ]

    /// Sorts a D-Bus error from a call into `.remote` or `.unreachable`.
    public init(callError error: DBusError, bus: String) {
        if Self.transportErrorNames.contains(error.name) || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") {
            self = .unreachable(bus: bus, reason: error.message.isEmpty ? error.name : error.message)
        } else {
            self = .remote(name: error.name, message: error.message)
        }
    }

    /// The error's name without navd's prefix (`InvalidParams`), or the full name for other errors.
    public var shortName: String? {
        guard case .remote(let name, _) = self else { return nil }
        return NavigatorErrorName(fullName: name)?.rawValue ?? name
    }

    /// One line for people: the message and, for a refusal, the error name in brackets.
    public var description: String {
        switch self {
        case .remote(let name, let message): return "\(message.isEmpty ? name : message) [\(name)]"
        case .unreachable(let bus, let reason): return "navd unreachable on \(bus): \(reason)"
        case .unexpectedReply(let what): return "unexpected reply from navd: \(what)"
        }
    }
}
