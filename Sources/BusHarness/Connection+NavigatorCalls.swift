import DBus
import NavigatorProtocol

extension Message {
    /// A call of navd's `member` with `arguments`, to navd's bus name on its object path
    /// (`Navigator`); `interface` and `path` may be changed to call something else
    /// there (a standard interface, a path navd does not serve).
    public static func navigatorCall(
        _ member: String, _ arguments: [DBusValue] = [], interface: String? = Navigator.interfaceName,
        path: String = Navigator.objectPath.rawValue
    ) throws -> Message {
        let message = try Message.methodCall(
            destination: Navigator.busName, path: path, interface: interface, member: member)
        if !arguments.isEmpty { try message.append(arguments) }
        return message
    }
}

extension Connection {
    /// Calls navd's `member` with `arguments` and returns the reply's values; an error reply
    /// is thrown as `DBusError`.
    @discardableResult
    public func navigator(_ member: String, _ arguments: [DBusValue] = [], timeoutMilliseconds: Int32 = 10_000) throws -> [DBusValue] {
        try call(Message.navigatorCall(member, arguments), timeoutMilliseconds: timeoutMilliseconds).body()
    }

    /// The error name a call fails with, or nil when it succeeds.
    public func navigatorError(_ member: String, _ arguments: [DBusValue] = []) -> String? {
        do {
            try navigator(member, arguments)
            return nil
        } catch let error as DBusError {
            return error.name
        } catch {
            return "\(error)"
        }
    }
}

extension DBusValue {
    /// An empty `a{sv}`, the params of a screen that has none.
    /// (Computed, not stored: LeakSanitizer cannot follow tagged enum payloads held in globals.)
    public static var emptyParams: DBusValue { .vardict([]) }
}
