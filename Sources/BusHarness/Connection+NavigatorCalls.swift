import DBus

extension Message {
    /// A call of navd's `member` with `arguments`, to `org.navd.Navigator1` on
    /// `/org/navd/Navigator1`; `interface` and `path` may be changed to call something else
    /// there (a standard interface, a path navd does not serve).
    public static func navigatorCall(
        _ member: String, _ arguments: [DBusValue] = [], interface: String? = "org.navd.Navigator1",
        path: String = "/org/navd/Navigator1"
    ) throws -> Message {
        let message = try Message.methodCall(
            destination: "org.navd.Navigator1", path: path, interface: interface, member: member)
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
