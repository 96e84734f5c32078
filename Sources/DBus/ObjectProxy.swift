/// The client's view of one remote object's interface, derived from the same
/// `InterfaceDeclaration` the service exports: calls are checked against the declared
/// in-signature before sending and replies against the out-signature on return.
public struct ObjectProxy: Sendable {
    /// The connection calls go through.
    public let connection: Connection
    /// The bus name of the service, such as `org.navd.Navigator1`.
    public let destination: String
    /// The object's path.
    public let path: ObjectPath
    /// The interface, as declared.
    public let interface: InterfaceDeclaration
    /// The timeout of each call.
    public var timeoutMilliseconds: Int32

    /// A proxy for `interface` of the object at `path` owned by `destination`.
    public init(
        connection: Connection, destination: String, path: ObjectPath, interface: InterfaceDeclaration,
        timeoutMilliseconds: Int32 = 25_000
    ) {
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The call message for `method` with `arguments`; throws `UnknownMethod` for an
    /// undeclared method and `InvalidArgs` when the arguments do not match its declaration.
    public func makeCall(_ method: String, _ arguments: [DBusValue] = []) throws(DBusError) -> Message {
        guard let declaration = interface.method(named: method) else {
            throw DBusError(name: DBusErrorName.unknownMethod, message: "\(interface.name) declares no method '\(method)'")
        }
        let given = arguments.signature
        if given != declaration.inSignature {
            throw .invalidArgs("\(method) takes '\(declaration.inSignature)' but was given '\(given)'")
        }
        let message = try Message.methodCall(
            destination: destination, path: path.rawValue, interface: interface.name, member: method)
        try message.append(arguments)
        return message
    }

    /// Calls `method` and returns the reply's values, checked against the declaration. An
    /// error reply is thrown as it came; a reply of the wrong type throws `InvalidArgs`.
    public func call(_ method: String, _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        try callBlocking(method, arguments)
    }

    /// The blocking `call` under a name of its own, usable from async code.
    public func callBlocking(_ method: String, _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        let reply = try connection.callBlocking(try makeCall(method, arguments), timeoutMilliseconds: timeoutMilliseconds)
        return try checkedReply(reply, method: method)
    }

    /// The same call, awaited.
    public func call(_ method: String, _ arguments: [DBusValue] = []) async throws(DBusError) -> [DBusValue] {
        let message = try makeCall(method, arguments)
        let reply = try await connection.call(message, timeoutMilliseconds: timeoutMilliseconds)
        return try checkedReply(reply, method: method)
    }

    /// The current value of property `name` (`Properties.Get`), checked against its type.
    public func property(_ name: String) throws(DBusError) -> DBusValue {
        guard let declaration = interface.property(named: name) else {
            throw DBusError(name: DBusErrorName.unknownProperty, message: "\(interface.name) declares no property '\(name)'")
        }
        let message = try Message.methodCall(
            destination: destination, path: path.rawValue, interface: StandardInterfaces.properties.name, member: "Get")
        try message.append([.string(interface.name), .string(name)])
        let reply = try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
        guard let value = try reply.body().first?.variantValue, value.signature == declaration.signature else {
            throw .invalidArgs("property '\(name)' did not come back as '\(declaration.signature)'")
        }
        return value
    }

    /// Every property (`Properties.GetAll`), in the order the service sent them.
    public func allProperties() throws(DBusError) -> [(String, DBusValue)] {
        let message = try Message.methodCall(
            destination: destination, path: path.rawValue, interface: StandardInterfaces.properties.name, member: "GetAll")
        try message.append([.string(interface.name)])
        let reply = try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
        guard let pairs = try reply.body().first?.stringKeyedPairs else {
            throw .invalidArgs("GetAll did not return a{sv}")
        }
        return pairs
    }

    /// The match rule for this object's signals (all of them, or the one named `name`).
    public func signalRule(_ name: String? = nil) -> MatchRule {
        MatchRule.signals(sender: destination, path: path.rawValue, interface: interface.name, member: name)
    }

    /// The name and values of `message` when it is one of this interface's declared signals
    /// from this path with the declared signature; nil otherwise.
    public func decodeSignal(_ message: Message) -> (name: String, values: [DBusValue])? {
        guard message.kind == .signal, message.interface == interface.name, message.path == path.rawValue,
            let name = message.member, let declaration = interface.signal(named: name),
            message.signature == declaration.signature.rawValue, let values = try? message.body()
        else { return nil }
        return (name, values)
    }

    private func checkedReply(_ reply: Message, method: String) throws(DBusError) -> [DBusValue] {
        let declared = interface.method(named: method)?.outSignature ?? .empty
        if reply.signature != declared.rawValue {
            throw .invalidArgs("the reply to \(method) has type '\(reply.signature)' where '\(declared)' is declared")
        }
        return try reply.body()
    }
}
