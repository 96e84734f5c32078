import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl present ROUTE [key=value …] --sheet|--cover`: Present.
struct Present: AddsScreen {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.addingScreen("present", Present.self, flags: ["--sheet", "--cover"]) { command, flags in
        guard flags.count == 1 else { return false }
        command.style = flags.contains("--sheet") ? .sheet : .cover
        return true
    }
    static let abstract = "Present a modal layer over the screen on top."

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The layer's root route.", completion: routeCompletion) var route: String
    @Argument(help: ArgumentHelp("Params of the screen.", valueName: "key=value")) var params: [String] = []
    @Flag(help: "The layer's style.") var style: ModalStyle?

    func validate() throws {
        if style == nil { throw ValidationError("say how to present it: --sheet or --cover") }
        try validateAssignments(params)
    }

    func request(params: Params) -> NavigatorRequest<AddedScreen> {
        .present(route, params: params, style: style ?? .sheet)
    }
}

extension ModalStyle: EnumerableFlag {}
