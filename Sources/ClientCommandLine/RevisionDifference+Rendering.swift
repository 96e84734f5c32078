import JSON
import Recording
import NavdClient

/// What differs between two kept revisions (`navctl diff`): screens by id, the tab, facts and flows.
public struct RevisionDifference: Sendable {
    /// The two states compared.
    public let from: StateAtRevision, to: StateAtRevision

    /// The difference from `from` to `to`.
    public init(from: StateAtRevision, to: StateAtRevision) {
        self.from = from
        self.to = to
    }

    /// Screens of `to` not in `from` (by id), in `to`'s order.
    public var added: [Node] { screens(of: to, notIn: from) }
    /// Screens of `from` not in `to` (by id), in `from`'s order.
    public var removed: [Node] { screens(of: from, notIn: to) }
    /// Flow instances of `to` not in `from` (by id).
    public var addedFlows: [FlowInfo] { to.flows.filter { flow in !from.flows.contains { $0.id == flow.id } } }
    /// Flow instances of `from` not in `to` (by id).
    public var removedFlows: [FlowInfo] { from.flows.filter { flow in !to.flows.contains { $0.id == flow.id } } }
    /// The facts whose values differ, by name.
    public var changedFacts: [String] { Set(from.facts.keys).union(to.facts.keys).filter { from.facts[$0] != to.facts[$0] }.sorted() }

    private func screens(of state: StateAtRevision, notIn other: StateAtRevision) -> [Node] {
        let ids = Set(other.nodes.filter { $0.kind != .tab }.map(\.id))
        return state.nodes.filter { $0.kind != .tab && !ids.contains($0.id) }
    }

    /// One line a difference: `- route  (id)`, `+ route  (id)`, `tab a -> b`, `fact NAME: old -> new`,
    /// `flow - NAME  (id)`, `flow + NAME  (id)`; `no difference` when there is none.
    public var text: [String] {
        var lines = ["revision \(from.revision) -> \(to.revision)"]
        lines += removed.map { "- \($0.name)  (\($0.id))" } + added.map { "+ \($0.name)  (\($0.id))" }
        if from.selectedTab != to.selectedTab { lines.append("tab \(from.selectedTab) -> \(to.selectedTab)") }
        for name in changedFacts {
            lines.append("fact \(name): \(from.facts[name]?.text ?? "(none)") -> \(to.facts[name]?.text ?? "(none)")")
        }
        lines += removedFlows.map { "flow - \($0.flow)  (\($0.id))" } + addedFlows.map { "flow + \($0.flow)  (\($0.id))" }
        if lines.count == 1 { lines.append("no difference") }
        return lines
    }

    /// `{"from", "to", "removed": [{"id", "route"}], "added": […], "tab": {"from", "to"}, "facts": {NAME: {"from",
    /// "to"}}, "flows": {"removed": [{"id", "flow"}], "added": […]}}`; a fact absent on one side is null there.
    public var json: JSONValue {
        func screens(_ nodes: [Node]) -> JSONValue { .array(nodes.map { .object([("id", .string($0.id)), ("route", .string($0.name))]) }) }
        func flows(_ list: [FlowInfo]) -> JSONValue { .array(list.map { .object([("id", .string($0.id)), ("flow", .string($0.flow))]) }) }
        return .object([
            ("from", .number(from.revision)), ("to", .number(to.revision)),
            ("removed", screens(removed)), ("added", screens(added)),
            ("tab", .object([("from", .string(from.selectedTab)), ("to", .string(to.selectedTab))])),
            ("facts", .object(changedFacts.map { name in
                (name, .object([("from", from.facts[name]?.json ?? .null), ("to", to.facts[name]?.json ?? .null)]))
            })),
            ("flows", .object([("removed", flows(removedFlows)), ("added", flows(addedFlows))])),
        ])
    }
}
