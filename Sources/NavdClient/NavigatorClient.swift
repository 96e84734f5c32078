#if canImport(Glibc)
import Glibc
#endif
import DBus

/// A typed proxy of navd's interface (`Navigator.interface`) on one bus connection.
///
/// Each contract method is one blocking call, its arguments and its reply checked against the
/// method's declaration, that returns typed values or throws `NavigatorError`.
/// The same connection can also receive `StackChanged` and navd's `NameOwnerChanged`
/// (see `subscribe()` and `nextEvent(timeoutMilliseconds:)`). Use it from one thread.
public final class NavigatorClient {
    /// The bus connection the calls go through.
    public let connection: Connection
    /// How long one call waits for its reply.
    public let timeoutMilliseconds: Int32
    /// Which bus this client talks to, for messages ("session bus", "system bus" or the address).
    public let busDescription: String
    /// The unique name that owns navd's bus name as far as the events read so far tell
    /// (set by `subscribe()`, kept up to date by `nextEvent`); nil while navd is away.
    public internal(set) var followedOwner: String?

    /// Connects to `bus`; throws `.unreachable` when the bus itself cannot be reached.
    /// Does not check that navd is running: the first call does.
    public init(bus: BusAddress, timeoutMilliseconds: Int32 = 25_000) throws(NavigatorError) {
        self.timeoutMilliseconds = timeoutMilliseconds
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
        let message = try NavigatorCall.message(method, arguments, bus: busDescription)
        let reply: Message
        do {
            reply = try connection.call(message, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw NavigatorError(callError: error, bus: busDescription)
        }
        return try NavigatorCall.values(of: reply, for: method)
    }

    /// Calls `member` of a standard `interface` (such as `org.freedesktop.DBus.Properties`) on
    /// navd's object and returns the reply's values.
    public func call(interface: String, _ member: String, _ arguments: [DBusValue]) throws(NavigatorError) -> [DBusValue] {
        do {
            let message = try NavigatorCall.message(interface: interface, member, arguments)
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
