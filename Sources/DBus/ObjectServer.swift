import CDBus

/// Exported objects and the dispatch of method calls to them.
///
/// The server never sends anything: `handle` returns the reply, and `signal` /
/// `propertiesChanged` return signals, for the loop's thread to send. It holds no lock: use
/// it from one thread at a time (the thread that owns the connection and the state).
public final class ObjectServer: @unchecked Sendable {
    /// A class: each call finds its interface here, and a copy of a struct of these was a dozen references (the
    /// declaration, the handlers, the index) retained and released per call.
    final class Exported {
        let declaration: InterfaceDeclaration
        let implementation: InterfaceImplementation
        /// The declaration's members by name, built once at export.
        let index: DeclarationIndex

        init(declaration: InterfaceDeclaration, implementation: InterfaceImplementation, index: DeclarationIndex) {
            self.declaration = declaration
            self.implementation = implementation
            self.index = index
        }
    }

    /// Exported interfaces per path, in export order.
    var objects: [ObjectPath: [Exported]] = [:]
    /// Paths that answer `org.freedesktop.DBus.ObjectManager`.
    var managers: Set<ObjectPath> = []
    /// Paths that are nodes even with nothing exported at them.
    var nodes: Set<ObjectPath> = []
    /// Each object's hooks (`ObjectServer+CallHooks`).
    var hooks: [ObjectPath: ObjectHooks] = [:]
    /// The header names of the last calls read (`header(of:)`).
    private var names = RecentNames()

    /// An empty server.
    public init() {}

    /// Exports `interface` at `path`, replacing an earlier export of the same interface there.
    /// An invalid declaration is a programming error and stops the process with its reason.
    public func export(_ path: ObjectPath, interface: InterfaceDeclaration, implementation: InterfaceImplementation) {
        do {
            try Validate.path(path.rawValue)
            try interface.validate()
        } catch {
            preconditionFailure("cannot export \(interface.name) at \(path): \(error)")
        }
        var exported = objects[path] ?? []
        let entry = Exported(declaration: interface, implementation: implementation, index: DeclarationIndex(interface))
        if let index = exported.firstIndex(where: { $0.declaration.name == interface.name }) {
            exported[index] = entry
        } else {
            exported.append(entry)
        }
        objects[path] = exported
    }

    /// The paths with at least one exported interface, sorted.
    public var exportedPaths: [ObjectPath] { objects.keys.sorted { $0.rawValue < $1.rawValue } }

    /// The reply to `message`, or nil when it is not a method call or asked for no reply
    /// (its handler still runs). Every method call gets exactly one reply: success, the
    /// handler's error, or the standard error naming what did not match.
    public func handle(_ message: Message) -> Message? {
        switch handleForSending(message) {
        case nil: return nil
        case .message(let reply): return reply
        case .marshalled(let reply):
            do {
                return try Message(marshalled: reply)
            } catch {
                return message.makeError(error)
            }
        }
    }

    /// The header fields of `message`, its names shared with the last calls read when they are the same.
    public func header(of message: Message) -> CallHeader {
        CallHeader(message, names: &names)
    }

    /// `handle`, with a successful reply left marshalled, for `Connection.send(_:)` to write
    /// with others in one batch; error replies are libdbus messages.
    public func handleForSending(_ message: Message) -> OutgoingMessage? {
        handleForSending(message, header: header(of: message))
    }

    /// `handleForSending` with the call's header fields already read from it (`header`, which
    /// must be `message`'s), so that a caller that looked at them does not read them twice.
    public func handleForSending(_ message: Message, header: CallHeader) -> OutgoingMessage? {
        guard message.kind == .methodCall else { return nil }
        let reply: OutgoingMessage
        switch check(message, header: header) {
        case .answered(let answered):
            reply = answered
        case .checked(let checked):
            do {
                guard let handler = checked.implementation else {
                    throw DBusError.failed("method '\(checked.member)' of interface '\(checked.interface)' has no implementation")
                }
                reply = self.reply(to: checked, try handler(checked.call))
            } catch {
                reply = self.reply(to: checked, failure: error)
            }
        }
        return message.noReplyExpected ? nil : reply
    }

    /// A method call of an exported interface that passed every check (object, interface, method, the
    /// object's access hook, in-signature), with its arguments read: for the caller to answer, with
    /// `reply(to:_:)` or `reply(to:failure:)`, or to pass to the implementation's handler.
    public struct CheckedCall {
        /// The call and its arguments.
        public let call: MethodCall
        let member: String
        let interface: String
        let outSignature: Signature
        /// The handler the implementation registered for the method, if any.
        public let implementation: ((MethodCall) throws -> [DBusValue])?
    }

    /// What `check` makes of a call: answered already (an error naming what did not match, or a standard
    /// interface's reply), or checked, for its caller to answer.
    public enum Checked {
        /// Answered already: the error naming what did not match, or a standard interface's reply.
        case answered(OutgoingMessage)
        /// Passed every check: for the caller to answer.
        case checked(CheckedCall)
    }

    /// Checks a method call against what is exported (object, interface, method, the object's access hook,
    /// in-signature) and reads its arguments: the same checks and errors `handleForSending` gives, with the
    /// answering left to the caller, who learns what its own handler did without handing it through a closure.
    public func check(_ message: Message, header: CallHeader) -> Checked {
        let pathText = header.path ?? "/"
        let member = header.member ?? ""
        let path = ObjectPath(unchecked: pathText)
        let exported = objects[path] ?? []
        let isNode = !exported.isEmpty || path == .root || nodes.contains(path) || hasChildren(path)
        guard isNode else {
            return .answered(.message(message.makeError(DBusError(
                name: DBusErrorName.unknownObject, message: "No such object path '\(pathText)'"))))
        }
        if let interfaceName = header.interface {
            if let target = exported.first(where: { $0.declaration.name == interfaceName }) {
                return check(message, on: target, member: member, path: path)
            }
            if let standard = standardInterfaces(at: path).first(where: { $0.name == interfaceName }) {
                return .answered(.message(invokeStandard(message, interface: standard, member: member, path: path)))
            }
            return .answered(.message(message.makeError(DBusError(
                name: DBusErrorName.unknownInterface,
                message: "No such interface '\(interfaceName)' at object path '\(pathText)'"))))
        }
        // No interface field: resolve by member name, exported interfaces first.
        if let target = exported.first(where: { $0.index.methods[member] != nil }) {
            return check(message, on: target, member: member, path: path)
        }
        if let standard = standardInterfaces(at: path).first(where: { $0.method(named: member) != nil }) {
            return .answered(.message(invokeStandard(message, interface: standard, member: member, path: path)))
        }
        return .answered(.message(message.makeError(DBusError(
            name: DBusErrorName.unknownMethod,
            message: "No such method '\(member)' at object path '\(pathText)' (signature '\(message.signature)')"))))
    }

    private func check(_ message: Message, on target: Exported, member: String, path: ObjectPath) -> Checked {
        let interface = target.declaration
        guard let indexed = target.index.methods[member] else {
            return .answered(.message(message.makeError(Self.unknownMethod(member, interface: interface.name, message: message))))
        }
        if let refusal = refusal(message, at: path, interface: interface.name, member: member) {
            return .answered(.message(message.makeError(refusal)))
        }
        do throws(DBusError) {
            let arguments = try Self.checkedArguments(
                message, method: indexed.declaration, inSignature: indexed.inSignature, interface: interface.name)
            return .checked(CheckedCall(
                call: MethodCall(message: message, arguments: arguments), member: member, interface: interface.name,
                outSignature: indexed.outSignature, implementation: target.implementation.methods[member]))
        } catch {
            return .answered(.message(message.makeError(error)))
        }
    }

    /// The reply to a checked call answered with `values`: marshalled as declared, or `Failed` saying that
    /// the values do not fit the declaration.
    public func reply(to checked: CheckedCall, _ values: [DBusValue]) -> OutgoingMessage {
        let message = checked.call.message
        do {
            return .marshalled(try MarshalledMessage.reply(to: message, values, declared: checked.outSignature))
        } catch let error where error.message.hasPrefix(BodyCheck.mismatchPrefix) {
            return .message(message.makeError(DBusError.failed(
                "method '\(checked.member)' of interface '\(checked.interface)' produced values of type '\(values.signature)'"
                    + " where '\(checked.outSignature)' is declared")))
        } catch {
            return .message(message.makeError(DBusError.failed(
                "method '\(checked.member)' of interface '\(checked.interface)' produced a reply that cannot be sent: \(error.message)")))
        }
    }

    /// The error reply to a checked call whose handler threw `failure`: a `DBusError` as it is, anything else
    /// as `Failed` with its description.
    public func reply(to checked: CheckedCall, failure: any Error) -> OutgoingMessage {
        let error = failure as? DBusError ?? .failed(String(describing: failure))
        return .message(checked.call.message.makeError(error))
    }

    /// The call's arguments after checking its signature against the declaration.
    static func checkedArguments(
        _ message: Message, method: MethodDeclaration, inSignature: Signature, interface: String
    ) throws(DBusError) -> [DBusValue] {
        if !message.hasSignature(inSignature) {
            throw .invalidArgs(
                "Method '\(method.name)' of interface '\(interface)' expects arguments of type "
                    + "'\(inSignature)' but got '\(message.signature)'")
        }
        return try message.body()
    }

    static func unknownMethod(_ member: String, interface: String, message: Message) -> DBusError {
        DBusError(
            name: DBusErrorName.unknownMethod,
            message: "No such method '\(member)' in interface '\(interface)' at object path "
                + "'\(message.path ?? "/")' (signature '\(message.signature)')")
    }

    /// The standard interfaces `path` answers: the three every object does, and ObjectManager at a manager.
    func standardInterfaces(at path: ObjectPath) -> [InterfaceDeclaration] {
        managers.contains(path) ? StandardInterfaces.all + [StandardInterfaces.objectManager] : StandardInterfaces.all
    }

    /// Whether some exported path or added node lies below `path`.
    func hasChildren(_ path: ObjectPath) -> Bool {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        return objects.keys.contains { $0.rawValue.hasPrefix(prefix) && $0 != path }
            || nodes.contains { $0.rawValue.hasPrefix(prefix) && $0 != path }
    }

    /// The names of the nodes directly below `path` that lead to exported objects or added nodes, sorted.
    func childNames(of path: ObjectPath) -> [String] {
        let depth = path.segments.count
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for candidate in Set(objects.keys).union(nodes) where candidate.rawValue.hasPrefix(prefix) && candidate != path {
            let segments = candidate.segments
            if segments.count > depth { names.insert(String(segments[depth])) }
        }
        return names.sorted()
    }
}
