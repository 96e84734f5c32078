import DBus

/// One contract call's checks, shared by the blocking and the async client: the message is
/// checked against the method's declared in-signature before it is sent, and the reply against
/// its out-signature before its values are read.
enum NavigatorCall {
    /// The method call of `method` with `arguments` to the navigator at `path`; mismatched
    /// arguments are `.remote` with `InvalidArgs`.
    static func message(
        _ method: NavigatorMethod, _ arguments: [DBusValue], path: ObjectPath, bus: String
    ) throws(NavigatorError) -> Message {
        do {
            return try Navigator.call(method, arguments, path: path)
        } catch {
            throw NavigatorError(callError: error, bus: bus)
        }
    }

    /// The reply's values; a reply of another type than `method` declares is `.unexpectedReply`.
    static func values(of reply: Message, for method: NavigatorMethod) throws(NavigatorError) -> [DBusValue] {
        let declared = method.declaration.outSignature
        guard reply.signature == declared.rawValue else {
            throw .unexpectedReply("\(method.name) answered '\(reply.signature)' where '\(declared)' is declared")
        }
        do {
            return try reply.body()
        } catch {
            throw .unexpectedReply(error.message)
        }
    }

    /// A call of `member` of a standard `interface` (such as `org.freedesktop.DBus.Properties`) on
    /// the navigator object at `path`.
    static func message(
        interface: String, _ member: String, _ arguments: [DBusValue], path: ObjectPath
    ) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: Navigator.busName, path: path.rawValue, interface: interface, member: member)
        if !arguments.isEmpty { try message.append(arguments) }
        return message
    }

    /// The object of `app` (nil: the default navigator); an invalid app name is `.remote` with
    /// `InvalidArgs` saying why, before anything is sent.
    static func path(app: String?) throws(NavigatorError) -> ObjectPath {
        if let app, let problem = Navigator.appNameProblem(app) {
            throw .remote(name: DBusErrorName.invalidArgs, message: problem)
        }
        return Navigator.objectPath(app: app) ?? Navigator.objectPath
    }
}
