#if canImport(Glibc)
import Glibc
#endif
import DBus

/// A typed proxy of navd's interface (`Navigator.interface`) on one bus connection, acting on one
/// navigator: the default one, or the app picked at `init` (`/org/navd/Navigator1/apps/NAME`).
///
/// Each request (`NavigatorRequest`: every contract method, the properties, the apps) is one blocking call,
/// its arguments and its reply checked against the member's declaration, that returns typed values or throws
/// `NavigatorError`.
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
        path = try ObjectPath.navigator(app: app)
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

    /// Sends `request` to the navigator (`NavigatorRequest`) and waits for its reply, at most
    /// `timeoutMilliseconds`: `try client.send(.push("news-item", params: ["id": .int(7)]))`.
    public func send<Reply>(_ request: NavigatorRequest<Reply>) throws(NavigatorError) -> Reply {
        let message = try request.message(navigatorPath: path, bus: busDescription)
        let answer = Result { () throws(DBusError) in try connection.call(message, timeoutMilliseconds: timeoutMilliseconds) }
        return try request.reply(answer, bus: busDescription)
    }

    /// Sends `request` and `then` without waiting in between (one round trip: `Connection.callPipelined`), and
    /// waits for both replies. navd answers a read only after committing the changes before it, so a `then` of
    /// `.getState` sees the state `request` left (or another client's change after it). Throws `request`'s
    /// failure; `then`'s comes back as its result.
    public func send<Reply, Then>(_ request: NavigatorRequest<Reply>, then: NavigatorRequest<Then>) throws(NavigatorError)
        -> (Reply, Result<Then, NavigatorError>)
    {
        let messages = [
            try request.message(navigatorPath: path, bus: busDescription), try then.message(navigatorPath: path, bus: busDescription),
        ]
        let answers: [Result<Message, DBusError>]
        do {
            answers = try connection.callPipelined(messages, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            answers = [.failure(error), .failure(error)]
        }
        let reply = try request.reply(answers[0], bus: busDescription)
        return (reply, Result { () throws(NavigatorError) in try then.reply(answers[1], bus: busDescription) })
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
