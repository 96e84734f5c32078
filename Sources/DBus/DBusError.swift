import CDBus

/// A D-Bus error: a dotted error name and a human-readable message.
///
/// Error replies from peers, failures of libdbus and values this module refuses to send
/// all arrive as this one type, so callers can switch on `name`.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error name, for example `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// What went wrong, in words meant for a person.
    public var message: String

    /// Creates an error with the given name and message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `name: message`.
    public var description: String { "\(name): \(message)" }

    /// An `org.freedesktop.DBus.Error.Failed` with the given message.
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: DBusErrorName.failed, message: message)
    }

    /// An `org.freedesktop.DBus.Error.InvalidArgs` with the given message.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: DBusErrorName.invalidArgs, message: message)
    }
}

/// The standard error names of the D-Bus specification, plus this module's own local ones.
public enum DBusErrorName {
    /// Generic failure.
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    /// The arguments of a call (or a value) did not have the expected type or were invalid.
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The object has no method of that name (in that interface).
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// The object does not implement that interface.
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    /// No object is exported at that path.
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    /// The interface has no property of that name.
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// No reply arrived in time (libdbus' name for a call timeout).
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    /// The destination bus name is not owned and cannot be activated.
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The bus name has no owner.
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// The bus' security policy refused the operation.
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    /// The connection to the bus is gone.
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    /// An operation timed out.
    public static let timeout = "org.freedesktop.DBus.Error.Timeout"
    /// A limit of the service was reached (too many requests waiting, say).
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// Memory ran out inside libdbus.
    public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
    /// A timeout other than a call's (libdbus' name for some socket timeouts).
    public static let timedOut = "org.freedesktop.DBus.Error.TimedOut"
    /// No server listens at the address.
    public static let noServer = "org.freedesktop.DBus.Error.NoServer"
    /// The network the address needs cannot be reached.
    public static let noNetwork = "org.freedesktop.DBus.Error.NoNetwork"
    /// A file the address names (a socket) does not exist.
    public static let fileNotFound = "org.freedesktop.DBus.Error.FileNotFound"
    /// The address cannot be parsed.
    public static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
    /// The address is in use.
    public static let addressInUse = "org.freedesktop.DBus.Error.AddressInUse"
    /// Reading or writing the connection failed.
    public static let ioError = "org.freedesktop.DBus.Error.IOError"
    /// The prefix of the errors of service activation (`…Spawn.ChildExited`, `…Spawn.ExecFailed`, …).
    public static let spawnPrefix = "org.freedesktop.DBus.Error.Spawn."
    /// The message contains a type this module does not support (unix file descriptors).
    public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    /// Local only (never sent): `requestName` found the name owned by another connection.
    public static let nameAlreadyOwned = "org.navd.DBus.Error.NameAlreadyOwned"
}

/// Runs `body` with an initialised libdbus error and converts a set error into a `DBusError`.
func withLibdbusError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) -> (T, DBusError?) {
    var raw = CDBus.DBusError()
    dbus_error_init(&raw)
    let result = body(&raw)
    var converted: DBusError?
    if dbus_error_is_set(&raw) != 0 {
        let name = raw.name.map { String(cString: $0) } ?? DBusErrorName.failed
        let message = raw.message.map { String(cString: $0) } ?? ""
        converted = DBusError(name: name, message: message)
        dbus_error_free(&raw)
    }
    return (result, converted)
}
