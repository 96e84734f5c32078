import DBus
import Navigation
import NavigatorProtocol

/// A call's arguments read by the names its method declares, each as the type the declaration gives it
/// (the object server has already checked the call against the declared in-signature).
struct CallArguments {
    let method: NavigatorMethod
    let values: [DBusValue]

    init(_ method: NavigatorMethod, _ values: [DBusValue]) {
        self.method = method
        self.values = values
    }

    /// The `s` argument `name`.
    func string(_ name: String) throws(DBusError) -> String { try value(name).requiredString(name) }

    /// The `t` argument `name`.
    func uint64(_ name: String) throws(DBusError) -> UInt64 { try value(name).requiredUInt64(name) }

    /// The `b` argument `name`.
    func bool(_ name: String) throws(DBusError) -> Bool { try value(name).requiredBool(name) }

    /// The `u` argument `name`.
    func uint32(_ name: String) throws(DBusError) -> UInt32 { try value(name).requiredUInt32(name) }

    /// The `a{sv}` argument `name` (`params` unless told).
    func params(_ name: String = "params") throws(DBusError) -> InputParams { try InputValue.params(dbusValue: value(name)) }

    /// The `a(sa{sv})` screens argument `name`.
    func screens(_ name: String) throws(DBusError) -> [ScreenRequest] { try ScreenRequest.screens(dbusValue: value(name)) }

    /// The `a(sa{sv})` ops argument `name`.
    func operations(_ name: String) throws(DBusError) -> [RawOperation] { try RawOperation.operations(dbusValue: value(name)) }

    /// The value of the argument the method declares as `name`; a name it does not declare, or a call
    /// that carries fewer values, is `InvalidArgs`.
    private func value(_ name: String) throws(DBusError) -> DBusValue {
        guard let index = method.declaration.inArguments.firstIndex(where: { $0.name == name }), index < values.count else {
            throw .invalidArgs("\(method.name) has no argument '\(name)' in this call")
        }
        return values[index]
    }
}

/// What a handler answers: the reply's values, and the change the call made (nil when it made none).
struct Answer {
    let values: [DBusValue]
    let change: Change?

    init(_ values: [DBusValue], change: Change? = nil) {
        self.values = values
        self.change = change
    }
}

/// A call's arguments decoded as the daemon decodes them, without a daemon: what the D-Bus call fuzz target
/// (Sources/FuzzTargets) drives.
public enum CallDecoding {
    /// Every argument `method` declares, read as the handlers read it (`NavigatorDaemon.answer`), its
    /// `Apply` ops parsed into operations as the model parses them: a refusal is the `DBusError` the caller
    /// gets.
    public static func decode(_ method: NavigatorMethod, _ values: [DBusValue]) throws(DBusError) {
        let arguments = CallArguments(method, values)
        for argument in method.declaration.inArguments {
            switch argument.signature.rawValue {
            case "s": _ = try arguments.string(argument.name)
            case "t": _ = try arguments.uint64(argument.name)
            case "b": _ = try arguments.bool(argument.name)
            case "u": _ = try arguments.uint32(argument.name)
            case WireSignature.params.rawValue: _ = try arguments.params(argument.name)
            case WireSignature.operations.rawValue where argument.name == "ops":
                for operation in try arguments.operations(argument.name) {
                    do { _ = try operation.parsed() } catch { throw DBusError(error) }
                }
            case WireSignature.screens.rawValue: _ = try arguments.screens(argument.name)
            default: throw .invalidArgs("\(method.name): no decoding for argument '\(argument.name)' of type '\(argument.signature)'")
            }
        }
    }
}
