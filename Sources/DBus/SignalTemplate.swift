import CDBus

/// A signal of one object, interface and member whose header is marshalled once
/// (`ObjectServer.signalTemplate`, `ObjectServer.propertiesChangedTemplate`): each `message(_:)`
/// copies it, gives it a serial and appends a body the caller writes straight into the wire
/// format (`BodyWriter`), with no `DBusValue` tree to build, check and free. For signals sent
/// on every call.
///
/// The writer does not compare what it is given with the signature: the caller writes exactly
/// the declared type, value by value (tests compare the bytes with `marshalledSignal`'s for the
/// same values). Builds with assertions load every such message into libdbus, which validates
/// the body against the header's signature; strings are checked for NUL in every build.
public struct SignalTemplate: Sendable {
    /// The header: fixed part, fields, padding (body length and serial zero).
    let header: [UInt8]
    /// The body's signature, as declared.
    public let signature: Signature

    init(path: String, interface: String, member: String, signature: Signature) throws(DBusError) {
        try Validate.notLocal(path: path, interface: interface)
        if signature.rawValue.utf8.count > 255 { throw .invalidArgs("the message body's signature would exceed 255 bytes") }
        header = MarshalledMessage.signalHeader(
            path: path, interface: interface, member: member, signature: signature.rawValue
        ).bytes
        self.signature = signature
    }

    /// The signal with the body `body` writes, which must be of the type `signature`. Throws
    /// `InvalidArgs` when a string written holds a NUL character.
    public func message(_ body: (inout BodyWriter) -> Void) throws(DBusError) -> MarshalledMessage {
        var writer = BodyWriter(wire: WireWriter())
        writer.wire.bytes.reserveCapacity(header.count + 256)
        writer.wire.bytes.append(contentsOf: header)
        body(&writer)
        if let refusal = writer.refusal { throw refusal }
        MarshalledMessage.finish(&writer.wire, bodyStart: header.count)
        let message = MarshalledMessage(bytes: writer.wire.bytes)
        assert(message.isAcceptedByLibdbus, "a signal written through BodyWriter does not match its signature '\(signature)'")
        return message
    }
}

/// Writes a message body value by value in the D-Bus wire format, for `SignalTemplate`.
/// Containers take a closure that writes their contents. Nothing is checked against a
/// signature here (see `SignalTemplate`); strings are checked for NUL characters.
public struct BodyWriter {
    var wire: WireWriter
    /// The first problem met (a string holding NUL), thrown by `SignalTemplate.message`.
    var refusal: DBusError?

    /// `t`
    public mutating func uint64(_ value: UInt64) { wire.uint64(value) }
    /// `x`
    public mutating func int64(_ value: Int64) { wire.uint64(UInt64(bitPattern: value)) }
    /// `u`
    public mutating func uint32(_ value: UInt32) { wire.uint32(value) }
    /// `d`
    public mutating func double(_ value: Double) { wire.uint64(value.bitPattern) }
    /// `b`
    public mutating func boolean(_ value: Bool) { wire.uint32(value ? 1 : 0) }

    /// `s`: refused (when the message is made) if it holds a NUL character.
    public mutating func string(_ value: String) {
        if refusal == nil, Validate.containsNUL(value) {
            refusal = .invalidArgs("string contains a NUL character, which D-Bus strings cannot carry")
        }
        wire.text(value)
    }

    /// `as`
    public mutating func stringArray(_ values: [String]) {
        array(elementAlignment: 4) { body in
            for value in values { body.string(value) }
        }
    }

    /// An array whose elements `body` writes; `elementAlignment` is the element type's (8 for
    /// structs and dictionary entries, 4 for strings, 1 for bytes and variants).
    public mutating func array(elementAlignment: Int, _ body: (inout BodyWriter) -> Void) {
        wire.uint32(0)
        let lengthAt = wire.bytes.count - 4
        wire.align(elementAlignment)
        let start = wire.bytes.count
        body(&self)
        wire.patchUInt32(UInt32(wire.bytes.count - start), at: lengthAt)
    }

    /// The start of a struct or dictionary entry (8-aligned); its fields follow.
    public mutating func structure() { wire.align(8) }

    /// A `{sX}` dictionary entry: the key, then the value `value` writes.
    public mutating func entry(_ key: String, _ value: (inout BodyWriter) -> Void) {
        wire.align(8)
        string(key)
        value(&self)
    }

    /// The signature of a variant holding a basic type, such as `t` or `s`; its value follows.
    public mutating func variant(basic code: Unicode.Scalar) {
        wire.byte(1)
        wire.byte(UInt8(ascii: code))
        wire.byte(0)
    }

    /// A variant holding the `t` `value`: its signature, then the value.
    public mutating func variant(uint64 value: UInt64) { variant(basic: "t"); uint64(value) }
    /// A variant holding the `x` `value`.
    public mutating func variant(int64 value: Int64) { variant(basic: "x"); int64(value) }
    /// A variant holding the `u` `value`.
    public mutating func variant(uint32 value: UInt32) { variant(basic: "u"); uint32(value) }
    /// A variant holding the `d` `value`.
    public mutating func variant(double value: Double) { variant(basic: "d"); double(value) }
    /// A variant holding the `b` `value`.
    public mutating func variant(boolean value: Bool) { variant(basic: "b"); boolean(value) }
    /// A variant holding the `s` `value` (refused, as `string` says, if it holds a NUL character).
    public mutating func variant(string value: String) { variant(basic: "s"); string(value) }

    /// The signature of a variant holding a value of `signature`, such as `(sss)`; the caller writes
    /// the value next, as that signature says.
    public mutating func variant(signature: Signature) {
        wire.signature(signature.rawValue)
    }

    /// A whole variant holding `value` (checked as `DBusValue.validateForSending` does), for
    /// values with no writer of their own.
    public mutating func variant(_ value: DBusValue) {
        if refusal == nil {
            do {
                try value.validateForSending()
            } catch {
                refusal = error
            }
        }
        wire.value(.variant(value))
    }
}

extension MarshalledMessage {
    /// Whether libdbus loads this message (it validates the body against the header's signature).
    var isAcceptedByLibdbus: Bool {
        (try? Message(marshalled: self)) != nil
    }
}

extension ObjectServer {
    /// A template for the signal `name` of `interface` from `path` (see `SignalTemplate`). Throws
    /// `InvalidArgs` when the interface is not exported there or declares no such signal.
    public func signalTemplate(_ path: ObjectPath, interface: String, name: String) throws(DBusError) -> SignalTemplate {
        guard let exported = objects[path]?.first(where: { $0.declaration.name == interface }) else {
            throw .invalidArgs("interface '\(interface)' is not exported at '\(path)'")
        }
        guard let declared = exported.index.signals[name] else {
            throw .invalidArgs("interface '\(interface)' declares no signal '\(name)'")
        }
        return try SignalTemplate(path: path.rawValue, interface: interface, member: name, signature: declared)
    }

    /// A template for `PropertiesChanged` (`sa{sv}as`) from `path`, for `interface` exported there.
    /// Its body names `interface` first; the properties written must be declared by it, each
    /// value of its declared type.
    public func propertiesChangedTemplate(_ path: ObjectPath, interface: String) throws(DBusError) -> SignalTemplate {
        guard objects[path]?.contains(where: { $0.declaration.name == interface }) == true else {
            throw .invalidArgs("interface '\(interface)' is not exported at '\(path)'")
        }
        return try SignalTemplate(
            path: path.rawValue, interface: StandardInterfaces.properties.name, member: "PropertiesChanged",
            signature: Signature(unchecked: "sa{sv}as"))
    }
}
