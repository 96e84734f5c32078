import DBus
import Navigation
import NavigatorProtocol
import TestSupport

/// Raw calls of the coordination methods, decoded with NavigatorProtocol's wire conversions.
extension Connection {
    /// `Send(source, event, params, expected_revision)` → (revision, outcome).
    @discardableResult
    func sendEvent(
        _ event: String, from source: String = "", _ params: [(String, DBusValue)] = [], expectedRevision: UInt64 = 0
    ) throws -> (revision: UInt64, outcome: String) {
        let out = try navigator(NavigatorMethod.send.name, [.string(source), .string(event), .vardict(params), .uint64(expectedRevision)])
        try Self.requireTypes(out, ["t", "s"], "Send")
        return (out[0].uint64Value!, out[1].stringValue!)
    }

    /// `GetFlows` decoded.
    func navigatorFlows() throws -> [FlowInfo] {
        try [FlowInfo](dbusValue: navigator(NavigatorMethod.getFlows.name)[0])
    }

    /// `GetEvents(source)` decoded as (event, scope) pairs.
    func navigatorEvents(_ source: String = "") throws -> [String] {
        try [EventInfo](dbusValue: navigator(NavigatorMethod.getEvents.name, [.string(source)])[0]).map { "\($0.event) \($0.scope)" }
    }

    /// `Resolve(kind, target, params)` decoded.
    func navigatorResolve(_ kind: String, _ target: String, _ params: [(String, DBusValue)] = []) throws -> Resolution {
        try Resolution(dbusValues: navigator(NavigatorMethod.resolve.name, [.string(kind), .string(target), .vardict(params)]))
    }

    /// The `Facts` property, read with `Properties.Get`.
    func navigatorFacts() throws -> [String: ParamValue] {
        let message = try Message.navigatorCall(
            "Get", [.string(Navigator.interfaceName), .string(NavigatorProperty.facts.name)],
            interface: StandardInterfaces.properties.name)
        let value = try call(message).body()[0]
        return try [String: ParamValue](dbusValue: value.variantValue ?? value)
    }

    /// The error a call fails with, name and message; nil when it succeeds.
    func navigatorRefusal(_ member: String, _ arguments: [DBusValue] = []) -> DBusError? {
        do {
            try navigator(member, arguments)
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return DBusError(name: "not a DBusError", message: "\(error)")
        }
    }
}

extension Array where Element == DBusValue {
    /// Send's arguments from the top screen with no params and no revision check.
    static func sendArguments(_ event: String, from source: String = "", expectedRevision: UInt64 = 0) -> Self {
        [.string(source), .string(event), .emptyParams, .uint64(expectedRevision)]
    }
}
