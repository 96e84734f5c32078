#if canImport(Glibc)
import Glibc
#endif
import DBus

/// A typed proxy of navd's interface (`Navigator.interface`) on one bus connection, acting on one
/// navigator: the default one, or the app picked at `init` (`/org/navd/Navigator1/apps/NAME`).
///
/// Each contract method is one blocking call to that navigator's object, its arguments and its reply checked against the
/// method's declaration, that returns typed values or throws `NavigatorError`.
/// The same connection can also receive that navigator's `StackChanged` and `FlowFinished`,
/// navd's `NameOwnerChanged`, and for an app the apps coming and going (see `subscribe()` and
/// `nextEvent(timeoutMilliseconds:)`). Use it from one thread.
public final class NavigatorClient {
    /// The bus connection the calls go through.
    public let connection: Connection
    /// How long one call waits for its reply.
    public let timeoutMilliseconds: Int32
    /// Which bus this client talks to, for messages ("session bus", "system bus" or the address).
    public let busDescription: String
    /// The app this client acts on; nil for the default navigator.
    public let app: String?
    /// The object every call goes to and every navigator signal is matched on: `Navigator.objectPath`,
    /// or the app's `/org/navd/Navigator1/apps/NAME`.
    public let path: ObjectPath
    /// The unique name that owns navd's bus name as far as the events read so far tell
    /// (set by `subscribe()`, kept up to date by `nextEvent`); nil while navd is away.
    public internal(set) var followedOwner: String?

    /// Connects to `bus` to act on `app` (nil: the default navigator); throws `.unreachable` when
    /// the bus itself cannot be reached, and `.remote` with `InvalidArgs` for an invalid app name.
    /// Does not check that navd is running or that the app exists: the first call does (an app
    /// navd does not serve answers `UnknownObject`, naming the apps there are).
    public init(bus: BusAddress, app: String? = nil, timeoutMilliseconds: Int32 = 25_000) throws(NavigatorError) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.app = app
        path = try NavigatorCall.path(app: app)
        do {
            connection = try Connection(bus)
        } catch {
            throw .unreachable(bus: bus.displayName, reason: error.message.isEmpty ? error.name : error.message)
        }
        busDescription = bus.displayName
    }

    deinit {
        connection.close()
    }

    /// Calls `method` with `arguments` and returns the reply's values. Arguments that do not
    /// match the declared in-signature are refused before sending (`.remote` with `InvalidArgs`);
    /// a reply of another type than declared is `.unexpectedReply`.
    public func call(_ method: NavigatorMethod, _ arguments: [DBusValue] = []) throws(NavigatorError) -> [DBusValue] {
        let message = try NavigatorCall.message(method, arguments, path: path, bus: busDescription)
        let reply: Message
        do {
            reply = try connection.call(message, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw NavigatorError(callError: error, bus: busDescription)
        }
        return try NavigatorCall.values(of: reply, for: method)
    }

    /// Calls `member` of a standard `interface` (such as `org.freedesktop.DBus.Properties`) on
    /// the navigator's object (or on `path`, when given) and returns the reply's values.
    public func call(
        interface: String, _ member: String, _ arguments: [DBusValue], path: ObjectPath? = nil
    ) throws(NavigatorError) -> [DBusValue] {
        do {
            let message = try NavigatorCall.message(interface: interface, member, arguments, path: path ?? self.path)
            let reply = try connection.call(message, timeoutMilliseconds: timeoutMilliseconds)
            return try reply.body()
        } catch {
            throw NavigatorError(callError: error, bus: busDescription)
        }
    }

    /// The unique name that owns navd's bus name now, or nil when navd is not on the bus.
    public func navdOwner() throws(NavigatorError) -> String? {
        do {
            return try connection.nameOwner(Navigator.busName)
        } catch {
            throw NavigatorError(callError: error, bus: busDescription)
        }
    }
}

extension BusAddress {
    /// A name for the bus in messages: `session bus (ADDRESS)`, `system bus`, or the address itself.
    public var displayName: String {
        switch self {
        case .session:
            if let address = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !address.isEmpty {
                return "session bus (\(address))"
            }
            return "session bus"
        case .system:
            return "system bus"
        case .address(let address):
            return address
        }
    }
}
