import DBus
import Navigation

extension FlowInfo: WireStruct {
    /// A flow instance `(sssa{sv})`; GetFlows answers a list `a(sssa{sv})`.
    public static let wire = WireShape(WireSignature.flow, list: WireSignature.flows, named: "flows", item: "flow")

    /// The flow instance `(sssa{sv})`: (flow_id, flow, first_screen_id, params).
    public var dbusValue: DBusValue {
        .structure([.string(id), .string(flow), .string(firstScreen), params.dbusValue])
    }

    /// Reads a flow instance `(sssa{sv})`; throws `InvalidArgs` naming what does not fit.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 4,
              case .string(let id) = fields[0], case .string(let flow) = fields[1],
              case .string(let firstScreen) = fields[2]
        else { throw malformed("a flow instance \(WireSignature.flow)", dbusValue) }
        self.init(id: id, flow: flow, firstScreen: firstScreen, params: try [String: ParamValue](dbusValue: fields[3]))
    }
}

extension EventInfo: WireStruct {
    /// A handled event `(ss)`; GetEvents answers a list `a(ss)`.
    public static let wire = WireShape(WireSignature.event, list: WireSignature.events, named: "events", item: "event")

    /// The handled event `(ss)`: (event, scope).
    public var dbusValue: DBusValue { .structure([.string(event), .string(scope)]) }

    /// Reads a handled event `(ss)`; throws `InvalidArgs` naming what does not fit.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 2,
              case .string(let event) = fields[0], case .string(let scope) = fields[1]
        else { throw malformed("an event \(WireSignature.event)", dbusValue) }
        self.init(event: event, scope: scope)
    }
}

extension Outcome {
    /// Reads an outcome as Send and Resolve answer it; throws `InvalidArgs` naming an unknown one.
    public init(dbusValue: DBusValue) throws(DBusError) {
        let name = try dbusValue.requiredString("outcome")
        guard let outcome = Outcome(rawValue: name) else {
            throw .invalidArgs("outcome '\(name)' is not applied, redirected, resumed, finished, ignored or noop")
        }
        self = outcome
    }
}

extension Resolution {
    /// Resolve's reply `(s outcome, t revision, s tab, a(sssa{sv}) path, as trace)`.
    public var dbusValues: [DBusValue] {
        [.string(outcome.rawValue), .uint64(revision), .string(tab), path.dbusValue, .stringArray(trace)]
    }

    /// Reads Resolve's reply; throws `InvalidArgs` naming what does not fit.
    public init(dbusValues values: [DBusValue]) throws(DBusError) {
        guard values.count == 5 else {
            throw .invalidArgs("Resolve's reply has \(values.count) values, not 5 (outcome, revision, tab, path, trace)")
        }
        let trace = try decodeArray(values[4], "a trace \(WireSignature.trace)", item: "line") { line throws(DBusError) in
            try line.requiredString("a trace line")
        }
        self.init(
            outcome: try Outcome(dbusValue: values[0]), revision: try values[1].requiredUInt64("revision"),
            tab: try values[2].requiredString("tab"), path: try [Entry](dbusValue: values[3]), trace: trace)
    }
}

extension FlowEnd {
    /// `FlowFinished`'s arguments `(t revision, s flow_id, s flow, s output, a{sv} params)` for a change that made `revision`.
    public func flowFinishedArguments(revision: UInt64) -> [DBusValue] {
        [.uint64(revision), .string(id), .string(flow), .string(output), params.dbusValue]
    }

    /// Reads `FlowFinished`'s arguments: the revision of the change and the ended flow.
    public static func flowFinished(dbusValues values: [DBusValue]) throws(DBusError) -> (revision: UInt64, flow: FlowEnd) {
        guard values.count == 5 else {
            throw .invalidArgs("FlowFinished has \(values.count) values, not 5 (revision, flow_id, flow, output, params)")
        }
        let end = FlowEnd(
            id: try values[1].requiredString("flow_id"), flow: try values[2].requiredString("flow"),
            output: try values[3].requiredString("output"), params: try [String: ParamValue](dbusValue: values[4]))
        return (try values[0].requiredUInt64("revision"), end)
    }
}
