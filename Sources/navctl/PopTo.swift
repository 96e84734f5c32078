import ArgumentParser
import NavdClient

/// `navctl pop-to TARGET`: PopTo.
struct PopTo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pop-to",
        abstract: "Pop until a screen (by id, or the nearest with a route) is on top.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A screen id or a route name.", completion: routeCompletion) var target: String

    func run() throws {
        try Session(options).change("popto") { client throws(NavigatorError) in (try client.popTo(target), nil) }
    }
}
