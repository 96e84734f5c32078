import CDBus

extension Message {
    /// A method call to `member` of `interface` at `path` whose body is `body`, declared to be of type
    /// `signature`, loaded as libdbus loads a message read from the bus (`dbus_message_demarshal`): the body
    /// is validated against the signature, and anything malformed is refused (throws), never aborted on.
    /// What a peer can put in a call's body, for the D-Bus call fuzz target (Sources/FuzzTargets).
    public convenience init(
        receivedCallTo path: String, interface: String, member: String, signature: Signature, body: [UInt8]
    ) throws(DBusError) {
        var message = MarshalledMessage.header(type: 1, flags: 0, signature: signature.rawValue) { header in
            header.field(1, "o") { $0.text(path) }
            header.field(2, "s") { $0.text(interface) }
            header.field(3, "s") { $0.text(member) }
        }
        let bodyStart = message.bytes.count
        message.bytes += body
        MarshalledMessage.finish(&message, bodyStart: bodyStart)
        try self.init(marshalled: MarshalledMessage(bytes: message.bytes))
    }
}
