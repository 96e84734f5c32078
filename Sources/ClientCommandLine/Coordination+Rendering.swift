import JSON
import Recording
import NavdClient

extension FlowFinished {
    /// `{"event": "flow-finished", "revision", "flowId", "flow", "output", "params"}` (`output` `""` when abandoned).
    public var json: JSONValue {
        .object([
            ("event", .string("flow-finished")), ("revision", .number(revision)), ("flowId", .string(end.id)),
            ("flow", .string(end.flow)), ("output", .string(end.output)), ("params", end.params.json),
        ])
    }
}

extension FlowInfo {
    /// `{"id", "flow", "firstScreen", "params"}`.
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("flow", .string(flow)), ("firstScreen", .string(firstScreen)), ("params", params.json),
        ])
    }
}

extension EventInfo {
    /// `{"event", "scope"}`.
    public var json: JSONValue { .object([("event", .string(event)), ("scope", .string(scope))]) }
}

extension Resolution {
    /// The state document of the would-be tree with cause `resolve`, plus `"outcome"` and `"trace"` (an array of lines).
    public var json: JSONValue {
        guard case .object(var members) = state.json(cause: "resolve") else { return .null }
        members.append(("outcome", .string(outcome.rawValue)))
        members.append(("trace", .array(trace.map(JSONValue.string))))
        return .object(members)
    }

    /// The would-be state as one line with the outcome, `2 resolve rainbow: red > orange (applied)`, then the trace
    /// indented by two spaces.
    public var lines: [String] {
        ["\(state.line(cause: "resolve")) (\(outcome.rawValue))"] + trace.map { "  " + $0 }
    }
}

extension Dictionary where Key == String, Value == ParamValue {
    /// The params as `key=value` words, keys sorted: `id=7 title=Hello`.
    public var assignmentsText: String {
        keys.sorted().map { "\($0)=\(self[$0]!.text)" }.joined(separator: " ")
    }
}
