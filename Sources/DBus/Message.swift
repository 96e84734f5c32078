import CDBus

/// One D-Bus message (method call, reply, error or signal), owning a libdbus `DBusMessage`.
///
/// Header fields are read straight from libdbus. Messages are built by the static factories
/// and filled with `append`; every name and value is validated first, so nothing this type
/// hands to libdbus can make it abort the process.
public final class Message: @unchecked Sendable {
    /// The four message types, plus `invalid` for anything else.
    public enum Kind: Sendable {
        /// A method call.
        case methodCall
        /// A successful reply.
        case methodReturn
        /// An error reply.
        case error
        /// A signal.
        case signal
        /// Unknown type (never produced by libdbus for a received message).
        case invalid
    }

    /// The libdbus message; this object holds one reference.
    let raw: OpaquePointer

    /// The length of the body's signature when this object knows it (a message it created
    /// and appended to), so `append` need not ask libdbus; nil means ask.
    var bodySignatureLength: Int?

    /// Wraps a libdbus message, taking over one reference. `emptyBody` says the message was
    /// just created and has no body yet.
    init(taking raw: OpaquePointer, emptyBody: Bool = false) {
        self.raw = raw
        bodySignatureLength = emptyBody ? 0 : nil
    }

    deinit {
        dbus_message_unref(raw)
    }

    /// The message type.
    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .invalid
        }
    }

    /// The serial the connection gave the message when sending it (0 before that).
    public var serial: UInt32 { dbus_message_get_serial(raw) }

    /// For replies and errors: the serial of the call answered (0 otherwise).
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// The unique name of the sender (set by the bus), if any.
    public var sender: String? { Self.string(dbus_message_get_sender(raw)) }

    /// The destination bus name, if any.
    public var destination: String? { Self.string(dbus_message_get_destination(raw)) }

    /// The object path (calls and signals).
    public var path: String? { Self.string(dbus_message_get_path(raw)) }

    /// The interface (calls, where it is optional, and signals).
    public var interface: String? { Self.string(dbus_message_get_interface(raw)) }

    /// The method or signal name.
    public var member: String? { Self.string(dbus_message_get_member(raw)) }

    /// The error name of an error reply.
    public var errorName: String? { Self.string(dbus_message_get_error_name(raw)) }

    /// The body's signature (`""` for no body).
    public var signature: String { Self.string(dbus_message_get_signature(raw)) ?? "" }

    /// Whether the sender asked for no reply (method calls only). Setting it on a message
    /// already sent or received (locked by libdbus) is ignored.
    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { if serial == 0 { dbus_message_set_no_reply(raw, newValue ? 1 : 0) } }
    }

    /// Whether the bus may start (activate) the destination service for this call. Setting it
    /// on a message already sent or received is ignored.
    public var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { if serial == 0 { dbus_message_set_auto_start(raw, newValue ? 1 : 0) } }
    }

    /// A method call; every name is validated before libdbus sees it.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws(DBusError) -> Message {
        if let destination { try Validate.busName(destination) }
        try Validate.path(path)
        if let interface { try Validate.interface(interface) }
        try Validate.member(member)
        try Validate.notLocal(path: path, interface: interface)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusError(name: DBusErrorName.noMemory, message: "could not allocate a method call")
        }
        return Message(taking: raw, emptyBody: true)
    }

    /// A signal; every name is validated before libdbus sees it.
    public static func signal(path: String, interface: String, member: String) throws(DBusError) -> Message {
        try Validate.path(path)
        try Validate.interface(interface)
        try Validate.member(member)
        try Validate.notLocal(path: path, interface: interface)
        guard let raw = dbus_message_new_signal(path, interface, member) else {
            throw DBusError(name: DBusErrorName.noMemory, message: "could not allocate a signal")
        }
        return Message(taking: raw, emptyBody: true)
    }

    /// Whether the body's signature is exactly `signature` (compared inside libdbus, no copy).
    func hasSignature(_ signature: Signature) -> Bool {
        signature.rawValue.withCString { dbus_message_has_signature(raw, $0) != 0 }
    }

    /// Sets the destination (a unique or well-known bus name, validated), for example to
    /// send a signal to one connection only. Throws for a message already sent or received.
    public func setDestination(_ destination: String?) throws(DBusError) {
        if serial != 0 { throw .invalidArgs("a message that was sent or received cannot be changed") }
        if let destination { try Validate.busName(destination) }
        if dbus_message_set_destination(raw, destination) == 0 {
            throw DBusError(name: DBusErrorName.noMemory, message: "could not set the destination")
        }
    }

    /// A method return answering this call, carrying `values`. Throws for a message that was
    /// never sent or received (it has no serial to answer).
    public func makeReply(_ values: [DBusValue] = []) throws(DBusError) -> Message {
        if serial == 0 { throw .invalidArgs("only a received method call can be answered") }
        guard let reply = dbus_message_new_method_return(raw) else {
            throw DBusError(name: DBusErrorName.noMemory, message: "could not allocate a reply")
        }
        let message = Message(taking: reply, emptyBody: true)
        try message.append(values)
        return message
    }


    /// An error reply answering this call. An invalid error name becomes
    /// `org.freedesktop.DBus.Error.Failed`, and a message libdbus would refuse is replaced,
    /// so this never fails.
    public func makeError(_ error: DBusError) -> Message {
        var name = error.name
        if (try? Validate.errorName(name)) == nil { name = DBusErrorName.failed }
        var text = error.message
        if (try? Validate.string(text)) == nil {
            text = String(decoding: text.utf8.filter { $0 != 0 }, as: UTF8.self)
            if (try? Validate.string(text)) == nil { text = "(error message was not valid UTF-8)" }
        }
        // libdbus aborts when asked to answer a message without a serial: build a bare error.
        let created = serial == 0 ? Self.bareError(name, text) : dbus_message_new_error(raw, name, text)
        guard let created else {
            fatalError("libdbus could not allocate an error reply (out of memory)")
        }
        return Message(taking: created)
    }

    private static func bareError(_ name: String, _ text: String) -> OpaquePointer? {
        guard let message = dbus_message_new(3) else { return nil }
        dbus_message_set_error_name(message, name)
        let wrapped = Message(taking: dbus_message_ref(message), emptyBody: true)
        try? wrapped.append([.string(text)])
        return message
    }

    /// For an error reply: its name and its first string argument (the message). Nil for
    /// other kinds.
    public var bodyError: DBusError? {
        guard kind == .error else { return nil }
        let text = (try? body())?.first?.stringValue ?? ""
        return DBusError(name: errorName ?? DBusErrorName.failed, message: text)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension Message: CustomStringConvertible {
    /// A one-line summary for logs: kind, names, serials and signature.
    public var description: String {
        var parts = ["\(kind)"]
        if let sender { parts.append("sender=\(sender)") }
        if let destination { parts.append("destination=\(destination)") }
        if let path { parts.append("path=\(path)") }
        if let interface { parts.append("interface=\(interface)") }
        if let member { parts.append("member=\(member)") }
        if let errorName { parts.append("error=\(errorName)") }
        parts.append("serial=\(serial)")
        if replySerial != 0 { parts.append("reply_serial=\(replySerial)") }
        parts.append("signature='\(signature)'")
        return parts.joined(separator: " ")
    }
}
