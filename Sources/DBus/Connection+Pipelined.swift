import CDBus

extension Connection {
    /// Sends every method call in `messages` before waiting for any reply, then waits for each reply in turn:
    /// one round trip for all of them instead of one each. A service answers one connection's calls in the
    /// order it reads them, so a later call sees what an earlier one did. Each reply comes back as `call`'s
    /// would: an error reply as `DBusError(name, message)`, no reply within `timeoutMilliseconds` as `NoReply`.
    /// Throws only when the calls cannot be sent at all.
    public func callPipelined(_ messages: [Message], timeoutMilliseconds: Int32 = 25_000) throws(DBusError) -> [Result<Message, DBusError>] {
        try requireConnected()
        return try reading.withLock { _ throws(DBusError) in
            var pendingCalls: [OpaquePointer?] = []
            defer { for pending in pendingCalls { if let pending { dbus_pending_call_unref(pending) } } }
            for message in messages {
                var pending: OpaquePointer?
                let queued = writing.withLock { _ in dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMilliseconds) }
                // libdbus gives no pending call when the connection is already closed.
                guard queued != 0 else {
                    throw DBusError(name: DBusErrorName.noMemory, message: "libdbus could not queue the call")
                }
                pendingCalls.append(pending)
            }
            dbus_connection_flush(raw)
            return pendingCalls.map { pending -> Result<Message, DBusError> in
                guard let pending else {
                    return .failure(DBusError(name: DBusErrorName.disconnected, message: "not connected to the \(describedBus)"))
                }
                dbus_pending_call_block(pending)
                guard let reply = dbus_pending_call_steal_reply(pending) else {
                    return .failure(DBusError(name: DBusErrorName.noReply, message: "the call got no reply"))
                }
                let message = Message(taking: reply)
                guard dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR else { return .success(message) }
                let (_, error) = withLibdbusError { error in dbus_set_error_from_message(error, reply) }
                return .failure(error ?? DBusError(name: DBusErrorName.failed, message: "an error reply without a name"))
            }
        }
    }
}
