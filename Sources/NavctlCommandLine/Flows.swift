import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl flows`: GetFlows.
struct Flows: Listing {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.listing("flows", Flows.self)
    static let abstract = "List the flow instances in the tree, outer before inner."
    static let discussion = "One a line: the instance's id, the flow, its first screen (route and id) and its params."

    @OptionGroup var options: GlobalOptions
    @Flag(help: ArgumentHelp("Print only the flow names, once each (for shell completion).", visibility: .hidden))
    var names = false

    var request: NavigatorRequest<[FlowInfo]> { .getFlows }
    static func json(_ flow: FlowInfo) -> JSONValue { flow.json }

    /// Each flow's name once, in the order of its first instance.
    func names(of flows: [FlowInfo]) -> [String] {
        var seen: Set<String> = []
        return flows.map(\.flow).filter { seen.insert($0).inserted }
    }

    func lines(_ flows: [FlowInfo], session: Session) throws -> [String] {
        guard !flows.isEmpty else { return [] }
        let routes = Dictionary(try session.client.send(.getTree).nodes.map { ($0.id, $0.name) }, uniquingKeysWith: { $1 })
        let columns = zip(flows.map(\.id).paddedColumn, flows.map(\.flow).paddedColumn)
        return zip(columns, flows).map { column, flow in
            var line = column.0 + "  " + column.1 + "  from \(routes[flow.firstScreen] ?? "?") (\(flow.firstScreen))"
            if !flow.params.isEmpty { line += "  " + flow.params.assignmentsText }
            return line
        }
    }
}
