import DBus
import Navigation
import NavigatorProtocol

/// What a handler answers: the reply's values; or the change the call made, the reply's values and the call that
/// asked for it, typed and as its arguments came (what its record keeps); or, for `Reload`, that the reload is to be
/// done (off the loop's thread).
enum Answer {
    case reply([DBusValue])
    case changed(Change, reply: [DBusValue], call: NavigatorCall, arguments: [DBusValue])
    case reload
}

/// A call's arguments decoded as the daemon decodes them, without a daemon: what the D-Bus call fuzz target
/// (Sources/FuzzTargets) drives.
public enum CallDecoding {
    /// The call of `method` read from `values` as the daemon reads it (`NavigatorCall(_:values:)`, what
    /// `NavigatorDaemon.answer` switches over), its `Apply` ops parsed into operations as the model parses them: a
    /// refusal is the `DBusError` the caller gets.
    @discardableResult
    public static func decode(_ method: NavigatorMethod, _ values: [DBusValue]) throws(DBusError) -> NavigatorCall {
        let call = try NavigatorCall(method, values: values)
        if case .apply(let arguments) = call {
            for operation in arguments.ops.reading {
                do { _ = try operation.parsed() } catch { throw DBusError(error) }
            }
        }
        return call
    }
}
