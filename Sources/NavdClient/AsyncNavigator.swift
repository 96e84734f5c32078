import DBus
import Synchronization

/// navd's contract as `async` calls, for Swift apps: the async face of `NavigatorClient`, acting
/// on one navigator (the default one, or the app picked at `init`).
///
/// One instance may be shared by any number of tasks (it is `Sendable`). Each call is checked
/// against the method's declaration like the blocking client's, and fails with the same typed
/// `NavigatorError`: a refusal is `.remote` with navd's error name. A call waits for its reply on
/// a thread of the D-Bus layer's (never on a task's thread), which ends with the reply or the
/// timeout; concurrent calls on one instance are answered one after the other. A call, once
/// sent, runs to its reply: cancelling the calling task does not take back a change navd may
/// already have made.
///
/// `updates()` and `states()` follow navd's state as an `AsyncSequence`; see `NavigatorUpdates`.
/// `close()` ends the connection and every sequence still running.
public final class AsyncNavigator: Sendable {
    /// The bus this navigator talks to (each update sequence opens its own connection to it).
    public let bus: BusAddress
    /// How long one call waits for its reply.
    public let timeoutMilliseconds: Int32
    /// Which bus this navigator talks to, for messages ("session bus", "system bus" or the address).
    public let busDescription: String
    /// The app this navigator acts on; nil for the default navigator.
    public let app: String?
    /// The object every call goes to and the update sequences follow.
    public let path: ObjectPath
    /// The connection the calls go through.
    let connection: Connection
    /// The update readers running now, so that `close()` can end them.
    let readers = Mutex(ReaderRegistry())

    /// Connects to `bus` to act on `app` (nil: the default navigator); throws `.unreachable` when
    /// the bus itself cannot be reached, and `.remote` with `InvalidArgs` for an invalid app name.
    /// Does not check that navd is running or that the app exists: the first call does (an app
    /// navd does not serve answers `UnknownObject`, naming the apps there are).
    public init(bus: BusAddress, app: String? = nil, timeoutMilliseconds: Int32 = 25_000) throws(NavigatorError) {
        self.bus = bus
        self.app = app
        path = try ObjectPath.navigator(app: app)
        self.timeoutMilliseconds = timeoutMilliseconds
        busDescription = bus.displayName
        do {
            connection = try Connection(bus)
        } catch {
            throw .unreachable(bus: bus.displayName, reason: error.message.isEmpty ? error.name : error.message)
        }
    }

    deinit {
        close()
    }

    /// Closes the connection and ends every update sequence of this navigator (each finishes
    /// without error once its reader thread has stopped). Later calls fail with `.unreachable`;
    /// later sequences end at once. Safe to call twice.
    public func close() {
        let running = readers.withLock { registry in
            registry.closed = true
            return Array(registry.running.values)
        }
        for reader in running { reader.stop() }
        connection.close()
    }

    /// Whether `close()` was called.
    public var isClosed: Bool { readers.withLock { $0.closed } }

    /// Sends `request` to the navigator (`NavigatorRequest`) and awaits its reply, at most
    /// `timeoutMilliseconds`: `try await navigator.send(.push("news-item", params: ["id": .int(7)]))`.
    public func send<Reply>(_ request: NavigatorRequest<Reply>) async throws(NavigatorError) -> Reply {
        let message = try request.message(navigatorPath: path, bus: busDescription)
        let answer: Result<Message, DBusError>
        do {
            answer = .success(try await connection.call(message, timeoutMilliseconds: timeoutMilliseconds))
        } catch {
            answer = .failure(error)
        }
        return try request.reply(answer, bus: busDescription)
    }
}

/// The update readers of one navigator, by identity, and whether it was closed.
struct ReaderRegistry {
    var running: [ObjectIdentifier: UpdateReader] = [:]
    var closed = false
}
