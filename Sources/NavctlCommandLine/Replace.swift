import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl replace ROUTE [key=value …]`: Replace.
struct Replace: AddsScreen {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.addingScreen("replace", Replace.self)
    static let abstract = "Swap the screen on top for a new one."

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The new screen's route.", completion: routeCompletion) var route: String
    @Argument(help: ArgumentHelp("Params of the screen.", valueName: "key=value")) var params: [String] = []

    func request(params: Params) -> NavigatorRequest<AddedScreen> {
        .replace(route, params: params)
    }
}
