import DBus

extension Reply {
    /// `(t revision, s outcome)`: Send's reply; an outcome the contract does not name is an unexpected reply.
    static func eventOutcome(_ values: [DBusValue]) throws(NavigatorError) -> EventOutcome {
        try decode { () throws(DBusError) in
            EventOutcome(revision: try values[0].requiredUInt64("revision"), outcome: try Outcome(dbusValue: values[1]))
        }
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
