/// One incoming method call as a handler sees it: arguments already decoded and checked
/// against the declared in-signature.
public struct MethodCall {
    /// The call message itself (header fields, flags).
    public let message: Message
    /// The decoded arguments, matching the declaration's in-arguments.
    public let arguments: [DBusValue]

    /// The caller's unique bus name.
    public var sender: String? { message.sender }

    /// A call of `message` with its decoded `arguments`.
    public init(message: Message, arguments: [DBusValue]) {
        self.message = message
        self.arguments = arguments
    }
}

/// The code behind one exported interface: method handlers by name and property accessors.
///
/// A handler returns the out values (checked against the declaration). Throwing a
/// `DBusError` sends that error; any other error sends `org.freedesktop.DBus.Error.Failed`
/// with the error's description.
public struct InterfaceImplementation {
    /// Handlers by method name.
    public var methods: [String: (MethodCall) throws -> [DBusValue]]
    /// The current value of a property by name; nil answers `UnknownProperty`.
    public var getProperty: (String) -> DBusValue?
    /// Sets a `readWrite` property (value already type-checked); nil makes every property
    /// read-only. The service emits `PropertiesChanged` itself.
    public var setProperty: ((String, DBusValue) throws(DBusError) -> Void)?

    /// An implementation from handlers and accessors.
    public init(
        methods: [String: (MethodCall) throws -> [DBusValue]] = [:],
        getProperty: @escaping (String) -> DBusValue? = { _ in nil },
        setProperty: ((String, DBusValue) throws(DBusError) -> Void)? = nil
    ) {
        self.methods = methods
        self.getProperty = getProperty
        self.setProperty = setProperty
    }
}
