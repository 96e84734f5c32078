import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl start FLOW [key=value …]`: Start.
struct Start: TakesAssignments {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withAssignments("start", Start.self)
    static let abstract = "Start a flow from the screen on top."
    static let discussion = "Params are typed as send's are. The JSON document carries the new instance's id as \"flowId\"."

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The flow's name.", completion: flowCompletion) var flow: String
    @Argument(help: ArgumentHelp("Params of the flow.", valueName: "key=value")) var params: [String] = []

    func run() throws {
        let session = try Session(options)
        let values = try session.inferredParams(params)
        try session.change(.op(.start), .start(flow, params: values)) {
            Session.Answered(revision: $0.revision, members: [("flowId", .string($0.id))], note: "flow \($0.id)")
        }
    }
}

extension Start {
    var subject: String {
        get { flow }
        set { flow = newValue }
    }
}
