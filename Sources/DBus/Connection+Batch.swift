import CDBus
import Glibc

extension Connection {
    /// Sends `batch` in order: runs of marshalled messages are written to the socket together,
    /// in one write each (fewer system calls, and none of libdbus' per-message work); libdbus
    /// messages in between go through libdbus as `send` sends them. Before writing, whatever
    /// libdbus still holds to send is written first, so the order is kept. Blocks until the
    /// marshalled bytes are written. Throws `Disconnected` when the connection is gone.
    public func send(_ batch: [OutgoingMessage]) throws(DBusError) {
        if batch.count == 1, case .marshalled(let message) = batch[0] {
            // One message (a first reply, say): written from its own bytes, nothing copied.
            try write(message.bytes)
            return
        }
        var pending: [UInt8] = []
        var total = 0
        for case .marshalled(let message) in batch { total += message.bytes.count }
        pending.reserveCapacity(total)
        for item in batch {
            switch item {
            case .marshalled(let message):
                pending.append(contentsOf: message.bytes)
            case .message(let message):
                try write(pending)
                pending.removeAll(keepingCapacity: true)
                try send(message)
            }
        }
        try write(pending)
    }

    /// Writes `bytes` (whole messages) to the socket after what libdbus has queued.
    private func write(_ bytes: [UInt8]) throws(DBusError) {
        if bytes.isEmpty { return }
        try requireConnected()
        let failure: Int32? = writing.withLock { _ in
            reading.withLock { _ in
                if dbus_connection_has_messages_to_send(raw) != 0 { dbus_connection_flush(raw) }
                var socket: Int32 = -1
                if dbus_connection_get_socket(raw, &socket) == 0 || socket < 0 { return EBADF }
                return bytes.withUnsafeBytes { Self.writeAll($0, to: socket) }
            }
        }
        if let failure {
            throw DBusError(
                name: DBusErrorName.disconnected,
                message: "could not write to the \(describedBus): \(String(cString: strerror(failure)))")
        }
    }

    /// Writes every byte to the non-blocking `socket`, waiting while it is full; nil, or the errno.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to socket: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { return code }
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            if poll(&descriptor, 1, -1) < 0 && errno != EINTR { return errno }
        }
        return nil
    }
}
