import ArgumentParser
import NavdClient

/// `navctl pop-to TARGET`: PopTo.
struct PopTo: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("pop-to", words: .one) { words, _ in
        var command = PopTo()
        command.target = words[0]
        return command
    }
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "Pop until a screen (by id, or the nearest with a route) is on top.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A screen id or a route name.", completion: routeCompletion) var target: String

    func run() throws {
        try Session(options).change("popto") { client throws(NavigatorError) in (try client.popTo(target), nil) }
    }
}
