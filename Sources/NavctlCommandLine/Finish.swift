import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl finish OUTPUT [key=value …]`: Finish.
struct Finish: TakesAssignments {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withAssignments("finish", Finish.self)
    static let abstract = "Finish the innermost flow around the screen on top with one of its outputs."
    static let discussion = "Params are typed as send's are."

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The output, one the flow declares.") var output: String
    @Argument(help: ArgumentHelp("Params of the output.", valueName: "key=value")) var params: [String] = []

    func run() throws {
        let session = try Session(options)
        let values = try session.inferredParams(params)
        try session.change(.op(.finish), .finish(output, params: values))
    }
}

extension Finish {
    var subject: String {
        get { output }
        set { output = newValue }
    }
}
