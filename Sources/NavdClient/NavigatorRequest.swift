import DBus

/// One call of navd's contract, declared once and sent by either client: what it calls, with which
/// arguments, and how its reply reads. `NavigatorClient.send(_:)` sends it and blocks,
/// `AsyncNavigator.send(_:)` awaits it; neither adds anything per method.
///
/// The contract's methods are the static members named as `NavigatorMethod`'s
/// (NavigatorRequest+Methods.swift): `try client.send(.push("news-item", params: ["id": .int(7)]))`;
/// the standard interfaces' members navd answers and the bus' `GetNameOwner` are in
/// NavigatorRequest+Standard.swift.
///
/// Both ends are checked against the member's declaration: a contract method's arguments of another signature
/// are refused before anything is sent (`.remote` with `InvalidArgs`), and a reply of another signature, or
/// with a value the contract does not allow, is `.unexpectedReply` naming the member, what was expected and
/// what came. A reply is never read as a default value.
public struct NavigatorRequest<Reply>: Sendable {
    /// Which object a request goes to.
    enum Object: Hashable, Sendable {
        /// The navigator the client acts on (the default one, or its app's).
        case navigator
        /// navd's default object, whatever navigator the client acts on (the ObjectManager lives there).
        case defaultNavigator
        /// The bus itself, `org.freedesktop.DBus`.
        case bus
    }

    /// The contract method it calls; nil for a member of a standard interface or of the bus.
    public let method: NavigatorMethod?
    /// The interface of the member it calls, such as `org.navd.Navigator1`.
    public let interface: String
    /// The member's declaration: its name, and the signatures the arguments and the reply are checked against.
    public let declaration: MethodDeclaration
    /// The arguments, in the declared order.
    public let arguments: [DBusValue]
    /// The object it goes to.
    let object: Object
    /// Reads the reply's values, whose signature is already checked; throws `InvalidArgs` for a value the
    /// contract does not allow.
    let decode: @Sendable ([DBusValue]) throws(DBusError) -> Reply
    /// The reply a D-Bus error answer stands for (`GetNameOwner`'s `NameHasNoOwner`: no owner), or nil when
    /// the error is the request's failure.
    let replyForError: (@Sendable (DBusError) -> Reply?)?

    /// A request of a member of `interface` on `object`.
    init(
        _ interface: String, _ declaration: MethodDeclaration, _ arguments: [DBusValue], on object: Object,
        method: NavigatorMethod? = nil, replyForError: (@Sendable (DBusError) -> Reply?)? = nil,
        decode: @escaping @Sendable ([DBusValue]) throws(DBusError) -> Reply
    ) {
        self.method = method
        self.interface = interface
        self.declaration = declaration
        self.arguments = arguments
        self.object = object
        self.replyForError = replyForError
        self.decode = decode
    }

    /// A request of the contract's `method` on the client's navigator.
    init(
        _ method: NavigatorMethod, _ arguments: [DBusValue] = [],
        decode: @escaping @Sendable ([DBusValue]) throws(DBusError) -> Reply
    ) {
        self.init(Navigator.interfaceName, method.declaration, arguments, on: .navigator, method: method, decode: decode)
    }

    /// A request of the contract's method `call`, with its typed arguments.
    init(_ call: NavigatorCall, decode: @escaping @Sendable ([DBusValue]) throws(DBusError) -> Reply) {
        self.init(call.method, call.values, decode: decode)
    }

    /// The member's name, as error messages say it (`Push`, `GetAll`).
    public var name: String { declaration.name }

    /// The method call for a client acting on the navigator at `path`. A contract method's arguments are checked
    /// against its declaration (`Navigator.call`): of another signature they are `.remote` with `InvalidArgs`
    /// naming both, and nothing is sent.
    func message(navigatorPath path: ObjectPath, bus: String) throws(NavigatorError) -> Message {
        do {
            let message: Message
            switch (object, method) {
            case (.navigator, let method?):
                return try Navigator.call(method, arguments, path: path)
            case (.navigator, nil), (.defaultNavigator, _):
                message = try Message.methodCall(
                    destination: Navigator.busName, path: (object == .navigator ? path : Navigator.objectPath).rawValue,
                    interface: interface, member: name)
            case (.bus, _):
                message = try Message.methodCall(
                    destination: BusDaemon.name, path: BusDaemon.path, interface: interface, member: name)
            }
            if !arguments.isEmpty { try message.append(arguments) }
            return message
        } catch {
            throw NavigatorError(callError: error, bus: bus)
        }
    }

    /// The reply the call came back with, read: an error answer is `.remote` or `.unreachable` (or the reply it
    /// stands for); a reply of another signature than declared, or a value the contract does not allow, is
    /// `.unexpectedReply`.
    func reply(_ answer: Result<Message, DBusError>, bus: String) throws(NavigatorError) -> Reply {
        switch answer {
        case .success(let message):
            return try read(signature: message.signature) { () throws(DBusError) in try message.body() }
        case .failure(let error):
            if let reply = replyForError?(error) { return reply }
            throw NavigatorError(callError: error, bus: bus)
        }
    }

    /// Reads a reply of `signature` whose values `body` gives: of another signature than declared, or with a
    /// value the contract does not allow, it is `.unexpectedReply`.
    func read(signature: String, _ body: () throws(DBusError) -> [DBusValue]) throws(NavigatorError) -> Reply {
        let declared = declaration.outSignature
        guard signature == declared.rawValue else {
            throw .unexpectedReply(method: name, expected: "'\(declared)'", received: "'\(signature)'")
        }
        do {
            return try decode(try body())
        } catch {
            throw .unexpectedReply(method: name, expected: "a reply the contract allows", received: error.message)
        }
    }
}

extension ObjectPath {
    /// The object of the navigator a client acts on: `app`'s (nil: the default navigator). An invalid app name
    /// is `.remote` with `InvalidArgs` saying why, before anything is sent.
    static func navigator(app: String?) throws(NavigatorError) -> ObjectPath {
        if let app, let problem = Navigator.appNameProblem(app) {
            throw .remote(name: DBusErrorName.invalidArgs, message: problem)
        }
        return Navigator.objectPath(app: app) ?? Navigator.objectPath
    }
}

extension NavigatorRequest {
    /// The cause of the change the request makes, as History and StackChanged name it; only a request of a method
    /// that changes the tree (`NavigatorMethod.changeCause`) may ask.
    public var changeCause: ChangeCause {
        guard let cause = method?.changeCause else { preconditionFailure("\(name) makes no change of its own") }
        return cause
    }
}
