import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Checks names, paths and strings before they reach libdbus, which aborts the process on
/// invalid input. Every check throws `InvalidArgs` naming what was wrong.
enum Validate {
    /// The longest bus, interface, member or error name the specification allows.
    static let maximumNameLength = 255

    /// A string libdbus accepts: valid UTF-8 with no NUL byte. A Swift `String` is always
    /// valid UTF-8, so only an embedded NUL needs looking for (one `memchr` over the bytes).
    static func string(_ s: String, what: String = "string") throws(DBusError) {
        if containsNUL(s) {
            throw .invalidArgs("\(what) contains a NUL character, which D-Bus strings cannot carry")
        }
    }

    /// Whether `s` holds a NUL byte; contiguous strings (all native ones) are scanned with `memchr`.
    @inline(__always)
    static func containsNUL(_ s: String) -> Bool {
        let scanned = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
        return scanned ?? s.utf8.contains(0)
    }

    /// An object path such as `/org/example/Service1`.
    static let path = Validator(what: "object path", function: dbus_validate_path)

    /// The path and interface libdbus reserves for messages it makes itself; the bus drops a
    /// connection that sends either.
    static let localPath = "/org/freedesktop/DBus/Local", localInterface = "org.freedesktop.DBus.Local"

    /// Refuses the reserved local path and interface in an outgoing message.
    static func notLocal(path: String, interface: String?) throws(DBusError) {
        if path == localPath || interface == localInterface {
            throw .invalidArgs("\(localPath) and \(localInterface) are reserved for local messages; the bus disconnects senders")
        }
    }

    /// An interface name such as `org.example.Service1`.
    static let interface = Validator(what: "interface name", function: dbus_validate_interface)

    /// A member (method or signal) name such as `Push`.
    static let member = Validator(what: "member name", function: dbus_validate_member)

    /// An error name such as `org.example.Service1.Error.NotFound`.
    static let errorName = Validator(what: "error name", function: dbus_validate_error_name)

    /// A unique (`:1.5`) or well-known (`org.example.Service1`) bus name.
    static let busName = Validator(what: "bus name", function: dbus_validate_bus_name)

    /// A sequence of complete types.
    static let signature = Validator(what: "signature", function: dbus_signature_validate)

    /// Exactly one complete type.
    static let singleSignature = Validator(what: "single complete type", function: dbus_signature_validate_single)
}

/// One of libdbus' validators and what it validates: `Validate.member(name)` throws `InvalidArgs`
/// naming what was wrong.
struct Validator: Sendable {
    /// What the text is, in the error message (`member name`).
    let what: String
    /// The libdbus function: nonzero when the text is valid; given an error object, it names the reason.
    let function: @Sendable (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t

    /// Runs the validator: first without an error object (the common, valid case costs
    /// one call), then again with one to name the reason when it refuses.
    func callAsFunction(_ s: String) throws(DBusError) {
        try Validate.string(s, what: what)
        if s.withCString({ function($0, nil) }) != 0 { return }
        let (_, error) = withLibdbusError { raw in s.withCString { function($0, raw) } }
        let reason = error?.message ?? "invalid"
        throw .invalidArgs("'\(s)' is not a valid D-Bus \(what): \(reason)")
    }

    /// `literal` when it is valid. Literals are the programmer's, so an invalid one stops the
    /// process with its reason.
    func literal(_ literal: String) -> String {
        do {
            try self(literal)
        } catch {
            preconditionFailure("invalid \(what) literal: \(error.message)")
        }
        return literal
    }
}

/// The D-Bus type codes as libdbus' `int` constants.
enum TypeCode {
    static let byte = code("y"), boolean = code("b"), int16 = code("n"), uint16 = code("q")
    static let int32 = code("i"), uint32 = code("u"), int64 = code("x"), uint64 = code("t")
    static let double = code("d"), string = code("s"), objectPath = code("o"), signature = code("g")
    static let unixFD = code("h"), array = code("a"), variant = code("v")
    static let structure = code("r"), dictEntry = code("e"), invalid: Int32 = 0

    private static func code(_ c: Unicode.Scalar) -> Int32 { Int32(c.value) }
}
