import DBus
import NavigatorProtocol

extension Connection {
    /// Calls navd's `member` with `arguments` on the navigator at `path` (an app's object, say)
    /// and returns the reply's values; an error reply is thrown as `DBusError`.
    @discardableResult
    public func navigator(
        _ member: String, _ arguments: [DBusValue] = [], at path: String, timeoutMilliseconds: Int32 = 10_000
    ) throws -> [DBusValue] {
        try call(Message.navigatorCall(member, arguments, path: path), timeoutMilliseconds: timeoutMilliseconds).body()
    }

    /// The error (name and message) a call of `member` on the navigator at `path` fails with, or
    /// nil when it succeeds.
    public func navigatorFailure(_ member: String, _ arguments: [DBusValue] = [], at path: String) -> DBusError? {
        do {
            try navigator(member, arguments, at: path)
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return DBusError(name: "not a DBusError", message: "\(error)")
        }
    }

    /// The `Revision` of the navigator at `path`, read with `GetState`.
    public func navigatorRevision(at path: String) throws -> UInt64 {
        guard let revision = try navigator("GetState", at: path).first?.uint64Value else {
            throw HarnessError("GetState at \(path) answered no revision")
        }
        return revision
    }
}

extension MatchRule {
    /// Every signal navd sends (from any of its objects and any interface), for a watcher that
    /// checks which path each comes from.
    public static var everyNavdSignal: MatchRule { .signals(sender: Navigator.busName, path: nil, interface: nil, member: nil) }
}
