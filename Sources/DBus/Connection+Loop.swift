import CDBus
import Glibc

/// Why `Connection.waitForMessages` returned.
public enum WaitResult: Sendable {
    /// Messages are ready for `popMessage`.
    case messages
    /// The timeout passed with nothing to read.
    case timedOut
    /// `wake()` was called.
    case woken
    /// The bus is gone (or the connection closed); make a new `Connection`.
    case disconnected
}

extension Connection {
    /// The next message libdbus has fully read, or nil at once when there is none. Never
    /// blocks. Popping the local `org.freedesktop.DBus.Local.Disconnected` signal marks the
    /// connection disconnected (it is still returned).
    public func popMessage() -> Message? {
        if state.withLock({ $0.closed }) { return nil }
        guard let raw = reading.withLock({ _ in dbus_connection_pop_message(raw) }) else { return nil }
        let message = Message(taking: raw)
        if message.isLocalDisconnect {
            state.withLock { $0.sawDisconnected = true }
        }
        return message
    }

    /// Writes the outgoing queue, then waits until a message is ready, `wake()` is called,
    /// the bus goes away or `timeoutMilliseconds` pass (negative: no limit). Messages
    /// libdbus already holds count at once, so nothing buffered is ever slept on.
    public func waitForMessages(timeoutMilliseconds: Int32) -> WaitResult {
        if state.withLock({ $0.closed }) { return .disconnected }
        if hasBufferedMessages { return .messages }
        if !isConnected { return .disconnected }
        if dbus_connection_has_messages_to_send(raw) != 0 {
            reading.withLock { _ in dbus_connection_flush(raw) }
            if hasBufferedMessages { return .messages }
        }
        var socket: Int32 = -1
        if dbus_connection_get_unix_fd(raw, &socket) == 0 || socket < 0 {
            return hasBufferedMessages ? .messages : .disconnected
        }
        let deadline = timeoutMilliseconds < 0 ? nil : MonotonicClock.milliseconds() + Int64(timeoutMilliseconds)
        while true {
            var remaining: Int32 = -1
            if let deadline {
                remaining = Int32(clamping: max(0, deadline - MonotonicClock.milliseconds()))
            }
            var descriptors = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, remaining)
            if ready < 0 {
                if errno == EINTR { continue }
                return .disconnected
            }
            if descriptors[1].revents != 0 {
                drainWakeups()
                return .woken
            }
            if descriptors[0].revents != 0 {
                let events = descriptors[0].revents
                reading.withLock { _ in
                    if !handleReadWatch(events) { _ = dbus_connection_read_write(raw, 0) }
                }
                if hasBufferedMessages { return .messages }
                if dbus_connection_get_is_connected(raw) == 0 { return .disconnected }
                continue  // part of a message arrived; wait for the rest
            }
            if ready == 0 { return .timedOut }
        }
    }

    /// Makes a concurrent or the next `waitForMessages` return `.woken`. Thread-safe and
    /// async-signal-safe (one `write` to an eventfd), so a SIGTERM handler may call it.
    public func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// A handle that wakes this connection's loop, for places that cannot hold the connection,
    /// such as a C signal handler reading a global. Valid while the connection lives.
    public var waker: Waker { Waker(descriptor: wakeDescriptor) }

    /// Whether libdbus has a complete incoming message queued (reading what it has parsed).
    var hasBufferedMessages: Bool {
        reading.withLock { _ in dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS }
    }

    private func drainWakeups() {
        var count: UInt64 = 0
        while read(wakeDescriptor, &count, 8) == 8 {}
    }
}

/// Wakes a connection's `waitForMessages` from anywhere, including a signal handler.
public struct Waker: Sendable {
    let descriptor: Int32

    /// Makes the connection's current or next `waitForMessages` return `.woken`
    /// (async-signal-safe: one `write`). Must not be used after the connection is gone.
    public func wake() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }
}

extension Message {
    /// Whether this is libdbus' local `Disconnected` signal (the bus went away). It has no
    /// sender: nothing from the bus can pass for it.
    public var isLocalDisconnect: Bool {
        kind == .signal && sender == nil && interface == Validate.localInterface && path == Validate.localPath
            && member == "Disconnected"
    }
}
