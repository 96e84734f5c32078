import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl push ROUTE [key=value …]`: Push.
struct Push: AddsScreen {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.addingScreen("push", Push.self)
    static let abstract = "Push a screen onto the top stack."
    static let discussion = "Values are converted to the types the route declares (id=42 is sent as an int)."

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The route to push.", completion: routeCompletion) var route: String
    @Argument(help: ArgumentHelp("Params of the screen.", valueName: "key=value")) var params: [String] = []

    func request(params: Params) -> NavigatorRequest<AddedScreen> {
        .push(route, params: params)
    }
}
