import DBus

extension Reply {
    /// `(t revision, s outcome)`: Send's reply; an outcome the contract does not name is an unexpected reply.
    static func eventOutcome(_ values: [DBusValue]) throws(NavigatorError) -> EventOutcome {
        try decode { () throws(DBusError) in
            EventOutcome(revision: try values[0].requiredUInt64("revision"), outcome: try Outcome(dbusValue: values[1]))
        }
    }

    /// `(t revision, s flow_id)`: Start's reply.
    static func startedFlow(_ values: [DBusValue]) throws(NavigatorError) -> StartedFlow {
        let added = try addedScreen(values)
        return StartedFlow(revision: added.revision, id: added.id)
    }

    /// Properties.Get's `v` holding the `Facts` property's `a{sv}`.
    static func facts(_ values: [DBusValue]) throws(NavigatorError) -> Params {
        guard values.count == 1 else { throw .unexpectedReply("expected one Facts value") }
        var value = values[0]
        if case .variant(let inner) = value { value = inner }
        return try decode { () throws(DBusError) in try Params(dbusValue: value) }
    }

    static func flows(_ values: [DBusValue]) throws(NavigatorError) -> [FlowInfo] {
        try decode { () throws(DBusError) in try FlowInfo.flows(dbusValue: values[0]) }
    }

    static func events(_ values: [DBusValue]) throws(NavigatorError) -> [EventInfo] {
        try decode { () throws(DBusError) in try EventInfo.events(dbusValue: values[0]) }
    }

    static func resolution(_ values: [DBusValue]) throws(NavigatorError) -> Resolution {
        try decode { () throws(DBusError) in try Resolution(dbusValues: values) }
    }

    /// FlowFinished `(t revision, s flow_id, s flow, s output, a{sv} params)`, its signature already checked.
    static func flowFinished(_ values: [DBusValue]) throws(NavigatorError) -> FlowFinished {
        let (revision, end) = try decode { () throws(DBusError) in try FlowEnd.flowFinished(dbusValues: values) }
        return FlowFinished(revision: revision, end: end)
    }
}
