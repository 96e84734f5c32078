import ArgumentParser
import NavdClient

/// `navctl flows`: GetFlows.
struct Flows: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("flows", words: .none, flags: ["--names"]) { _, flags in
        var command = Flows()
        command.names = flags.contains("--names")
        return command
    }
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "List the flow instances in the tree, outer before inner.",
        discussion: "One a line: the instance's id, the flow, its first screen (route and id) and its params.")

    @OptionGroup var options: GlobalOptions
    @Flag(help: ArgumentHelp("Print only the flow names, once each (for shell completion).", visibility: .hidden))
    var names = false

    func run() throws {
        let session = try Session(options)
        let flows = try session.client.flows()
        if names {
            var seen: Set<String> = []
            session.say(flows.map(\.flow).filter { seen.insert($0).inserted })
        } else if options.json {
            session.say(json: .array(flows.map(\.json)))
        } else if !flows.isEmpty {
            let routes = Dictionary(try session.client.tree().nodes.map { ($0.id, $0.name) }, uniquingKeysWith: { $1 })
            let idWidth = flows.map(\.id.count).max() ?? 0
            let flowWidth = flows.map(\.flow.count).max() ?? 0
            session.say(flows.map { flow in
                var line = flow.id.padding(to: idWidth) + "  " + flow.flow.padding(to: flowWidth)
                    + "  from \(routes[flow.firstScreen] ?? "?") (\(flow.firstScreen))"
                if !flow.params.isEmpty { line += "  " + flow.params.assignmentsText }
                return line
            })
        }
    }
}
