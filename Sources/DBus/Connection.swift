import CDBus
import Glibc
import Synchronization

/// Which bus a `Connection` talks to.
public enum BusAddress: Sendable {
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    case session
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
    case system
    /// An explicit D-Bus address such as `unix:path=/tmp/bus`.
    case address(String)
}

/// A private connection to a message bus, registered (it has a unique name).
///
/// The process never exits when the bus goes away: `isConnected` turns false, the loop sees
/// `.disconnected`, and a new `Connection` can be made. Every method is thread-safe. A
/// blocking (or async) call made on another thread while a loop pops messages gets its own
/// reply: the loop waits at its next step until the call is done, so keep calls short on a
/// connection whose loop must stay responsive (a service makes none while serving).
public final class Connection: @unchecked Sendable {
    /// The libdbus connection; this object holds one reference.
    let raw: OpaquePointer
    /// An eventfd that `wake()` writes and `waitForMessages` polls.
    let wakeDescriptor: Int32
    /// The unique name the bus gave this connection, such as `:1.42`.
    public let uniqueName: String
    /// "session bus", "system bus", or the address: for error messages.
    public let describedBus: String

    struct State {
        var closed = false
        var sawDisconnected = false
    }
    let state = Mutex(State())
    /// Held while libdbus reads the socket into its incoming queue or hands out messages:
    /// `popMessage`, the reading steps of `waitForMessages`, and blocking calls. libdbus does
    /// not route replies between threads on its own: a thread popping messages could take the
    /// reply another thread's blocking call waits for. While a call holds this lock, the loop
    /// thread waits at its next step instead, and the call finds its reply.
    let reading = Mutex(())
    /// Held while a message is handed to libdbus for sending and while a batch of marshalled
    /// messages is written to the socket (`send(_:)` with a batch, which also holds `reading`),
    /// so that no message's bytes land inside another's.
    let writing = Mutex(())
    /// The socket's read watch once `readThroughWatch()` was called (see there).
    let readWatch = ReadWatch()

    private static let threadsInitialized: Bool = dbus_threads_init_default() != 0

    /// Connects and registers with the bus. Throws with the bus named in the message when the
    /// address is missing or unreachable.
    public init(_ bus: BusAddress) throws(DBusError) {
        _ = Self.threadsInitialized
        let address: String
        switch bus {
        case .session:
            describedBus = "session bus"
            address = try Self.sessionAddress()
        case .system:
            describedBus = "system bus"
            address = Self.environment("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
        case .address(let given):
            describedBus = given
            address = given
        }
        try Validate.string(address, what: "bus address")
        let (opened, openError) = withLibdbusError { error in dbus_connection_open_private(address, error) }
        guard let connection = opened else {
            let reason = openError?.message ?? "unknown error"
            throw DBusError(
                name: openError?.name ?? DBusErrorName.failed,
                message: "cannot connect to the \(describedBus == address ? "bus at \(address)" : describedBus): \(reason)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let (registered, registerError) = withLibdbusError { error in dbus_bus_register(connection, error) }
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard registered != 0, descriptor >= 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw DBusError(
                name: registerError?.name ?? DBusErrorName.failed,
                message: "cannot register with the \(describedBus): \(registerError?.message ?? "eventfd failed")")
        }
        raw = connection
        wakeDescriptor = descriptor
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
    }

    deinit {
        close()
        dbus_connection_unref(raw)
        Glibc.close(wakeDescriptor)
    }

    /// Whether the connection is open and the bus still there.
    public var isConnected: Bool {
        let current = state.withLock { $0 }
        if current.closed || current.sawDisconnected { return false }
        return dbus_connection_get_is_connected(raw) != 0
    }

    /// Closes the connection; later sends throw `Disconnected`. Safe to call twice.
    public func close() {
        let wasClosed = state.withLock { current in
            defer { current.closed = true }
            return current.closed
        }
        if !wasClosed { dbus_connection_close(raw) }
    }

    /// Queues `message` for sending without blocking and returns its serial. Throws
    /// `Disconnected` when the connection is gone.
    @discardableResult
    public func send(_ message: Message) throws(DBusError) -> UInt32 {
        try requireConnected()
        var serial: UInt32 = 0
        let queued = writing.withLock { _ in dbus_connection_send(raw, message.raw, &serial) }
        if queued == 0 {
            throw DBusError(name: DBusErrorName.noMemory, message: "libdbus could not queue the message")
        }
        return serial
    }

    /// Blocks until every queued outgoing message is written to the socket.
    public func flush() {
        if isConnected { reading.withLock { _ in dbus_connection_flush(raw) } }
    }

    /// Sends a method call and blocks for its reply. An error reply is thrown as
    /// `DBusError(name, message)`; a timeout is thrown as `NoReply`.
    public func call(_ message: Message, timeoutMilliseconds: Int32 = 25_000) throws(DBusError) -> Message {
        try callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The blocking `call` under a name of its own, so that async code (where the async
    /// overload of `call` wins) can still block on purpose.
    public func callBlocking(_ message: Message, timeoutMilliseconds: Int32 = 25_000) throws(DBusError) -> Message {
        try requireConnected()
        let (reply, error) = reading.withLock { _ in
            withLibdbusError { error in
                dbus_connection_send_with_reply_and_block(raw, message.raw, timeoutMilliseconds, error)
            }
        }
        if let reply { return Message(taking: reply) }
        throw error ?? DBusError(name: DBusErrorName.failed, message: "call failed without an error")
    }

    /// The same call, awaited: the blocking call runs on a thread of its own, so no task
    /// thread is held while waiting.
    public func call(_ message: Message, timeoutMilliseconds: Int32 = 25_000) async throws(DBusError) -> Message {
        let handoff = Handoff<Result<Message, DBusError>>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let body: @Sendable () -> Void = {
                handoff.put(Result { () throws(DBusError) -> Message in
                    try self.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
                })
                continuation.resume()
            }
            if !DetachedThread.start(body) { body() }
        }
        guard let result = handoff.take() else {
            throw DBusError(name: DBusErrorName.failed, message: "the call's thread ended without a result")
        }
        return try result.get()
    }

    func requireConnected() throws(DBusError) {
        if !isConnected {
            throw DBusError(name: DBusErrorName.disconnected, message: "not connected to the \(describedBus)")
        }
    }

    private static func sessionAddress() throws(DBusError) -> String {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return address }
        if let runtime = environment("XDG_RUNTIME_DIR") {
            let socket = runtime + "/bus"
            if access(socket, F_OK) == 0 { return "unix:path=" + socket }
        }
        throw DBusError(
            name: DBusErrorName.failed,
            message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Starts detached POSIX threads for blocking work (no Foundation in this module).
public enum DetachedThread {
    private final class Box {
        let name: String?
        let body: @Sendable () -> Void
        init(_ name: String?, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        /// Names the thread, then runs the body.
        func run() {
            if let name { DetachedThread.nameThisThread(name) }
            body()
        }
    }

    /// Runs `body` on a new detached thread, named `name` when given (the kernel keeps its first
    /// 15 bytes, shown in `/proc/PID/task/TID/comm`); false if no thread could be created.
    public static func start(named name: String? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.run()
            return nil
        }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        return true
    }

    /// Names the calling thread (`pthread_setname_np` is not visible to Swift on Glibc; its comm file is).
    fileprivate static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        Glibc.close(descriptor)
    }
}
