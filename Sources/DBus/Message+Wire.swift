import CDBus
import Synchronization

/// A reply or signal marshalled in Swift: the complete message in the wire format, ready to be
/// written to the bus as it is (`Connection.send(_:)` with a batch) or loaded into libdbus
/// (`Message(marshalled:)`).
///
/// libdbus' iterator API rewrites the header's signature field after every top-level value it
/// appends, which costs more than everything else about a small message; marshalling here
/// costs a fraction of that. The values are checked against the declared signature first
/// (`BodyCheck`), and names were validated when their interface was exported.
///
/// Such a message carries its serial from the start, taken from a range of its own (the upper
/// half of the 32-bit space), so it never repeats the serial of a call libdbus numbered.
public struct MarshalledMessage: Sendable {
    /// The whole message: header, padding, body.
    let bytes: [UInt8]
}

/// Something to send: a libdbus message, or one marshalled here.
public enum OutgoingMessage: Sendable {
    /// A libdbus message (errors, and whatever was built through `Message`).
    case message(Message)
    /// A message marshalled in Swift.
    case marshalled(MarshalledMessage)

    /// The error name, for an error reply (marshalled messages are never errors).
    public var errorName: String? {
        if case .message(let message) = self { return message.errorName }
        return nil
    }
}

extension Message {
    /// Loads a marshalled message into libdbus, which validates it as if it had come from the
    /// bus and refuses (throws), never aborts, on anything malformed.
    public convenience init(marshalled: MarshalledMessage) throws(DBusError) {
        let (loaded, error) = marshalled.bytes.withUnsafeBufferPointer { buffer in
            withLibdbusError { error in
                buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32(buffer.count), error) }
            }
        }
        guard let loaded else {
            throw DBusError(
                name: error?.name ?? DBusErrorName.failed,
                message: "libdbus refused a message built for sending: \(error?.message ?? "unknown reason")")
        }
        self.init(taking: loaded)
    }
}

extension MarshalledMessage {
    /// The next serial for a message built here: 2^31 and up, wrapping within that half.
    private static let nextWireSerial = Atomic<UInt32>(0)

    private static func wireSerial() -> UInt32 {
        let count = nextWireSerial.wrappingAdd(1, ordering: .relaxed).newValue
        return 0x8000_0000 | (count & 0x7FFF_FFFF) | (count & 0x7FFF_FFFF == 0 ? 1 : 0)
    }

    /// Header field codes (D-Bus specification).
    private enum Field {
        static let path: UInt8 = 1, interface: UInt8 = 2, member: UInt8 = 3
        static let replySerial: UInt8 = 5, destination: UInt8 = 6, signature: UInt8 = 8
    }

    /// A signal whose path, interface and member were validated already, carrying `values` of
    /// the validated type `declared` (each value is checked against it).
    static func signal(
        path: String, interface: String, member: String, _ values: [DBusValue], declared: Signature
    ) throws(DBusError) -> MarshalledMessage {
        try Validate.notLocal(path: path, interface: interface)
        return try wire(type: 4, flags: 0, declared: declared, values, header: signalFields(path, interface, member))
    }

    /// A method return answering the received `call`, carrying `values` of the validated type
    /// `declared` (each value is checked against it). Like libdbus' replies, it expects no reply.
    static func reply(
        to call: Message, _ values: [DBusValue], declared: Signature
    ) throws(DBusError) -> MarshalledMessage {
        let answered = call.serial
        if answered == 0 { throw .invalidArgs("only a received method call can be answered") }
        let destination = call.sender
        return try wire(type: 2, flags: 1, declared: declared, values) { header in
            header.field(Field.replySerial, "u") { $0.uint32(answered) }
            if let destination { header.field(Field.destination, "s") { $0.text(destination) } }
        }
    }

    /// Checks `values` against `declared` and marshals header and body.
    private static func wire(
        type: UInt8, flags: UInt8, declared: Signature, _ values: [DBusValue], header fields: (inout WireWriter) -> Void
    ) throws(DBusError) -> MarshalledMessage {
        let signature = declared.rawValue
        if signature.utf8.count > 255 { throw .invalidArgs("the message body's signature would exceed 255 bytes") }
        try BodyCheck.check(values, against: signature)
        var message = header(type: type, flags: flags, signature: signature, fields: fields)
        let bodyStart = message.bytes.count
        // The header ends 8-aligned, so the body's alignment is the same counted from either start.
        for value in values { message.value(value) }
        finish(&message, bodyStart: bodyStart)
        return MarshalledMessage(bytes: message.bytes)
    }

    /// A message's header up to its body: the fixed part (body length and serial left zero for
    /// `finish`), the header fields `fields` writes, the `signature` field, the padding to 8.
    static func header(
        type: UInt8, flags: UInt8, signature: String, fields: (inout WireWriter) -> Void
    ) -> WireWriter {
        var message = WireWriter()
        message.bytes.reserveCapacity(256)
        message.byte(UInt8(ascii: "l"))
        message.byte(type)
        message.byte(flags)
        message.byte(1)
        message.uint32(0)  // the body's length, filled in by `finish`
        message.uint32(0)  // the serial, filled in by `finish`
        message.array(elementAlignment: 8) { header in
            fields(&header)
            if !signature.isEmpty { header.field(Field.signature, "g") { $0.signature(signature) } }
        }
        message.align(8)
        return message
    }

    /// Fills in the body's length (the bytes after `bodyStart`) and a new serial.
    static func finish(_ message: inout WireWriter, bodyStart: Int) {
        message.patchUInt32(UInt32(message.bytes.count - bodyStart), at: 4)
        message.patchUInt32(wireSerial(), at: 8)
    }

    /// A signal's header (see `header`) for a path, interface and member validated already.
    static func signalHeader(path: String, interface: String, member: String, signature: String) -> WireWriter {
        header(type: 4, flags: 0, signature: signature, fields: signalFields(path, interface, member))
    }

    /// A signal's header fields: its path, interface and member.
    private static func signalFields(_ path: String, _ interface: String, _ member: String) -> (inout WireWriter) -> Void {
        { header in
            header.field(Field.path, "o") { $0.text(path) }
            header.field(Field.interface, "s") { $0.text(interface) }
            header.field(Field.member, "s") { $0.text(member) }
        }
    }
}

extension WireWriter {
    /// One header field: a struct of its code and a variant of type `type` written by `value`.
    mutating func field(_ code: UInt8, _ type: String, _ value: (inout WireWriter) -> Void) {
        align(8)
        byte(code)
        signature(type)
        value(&self)
    }
}
