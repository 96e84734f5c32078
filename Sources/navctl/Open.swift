import ArgumentParser
import NavdClient

/// `navctl open LINK|STATE`: Open.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Go to a deep link (/news/7, /rainbow/orange) or a named state (root, end).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A link or a state name.", completion: targetCompletion) var target: String

    func run() throws {
        try Session(options).change("open") { client throws(NavigatorError) in (try client.open(target), nil) }
    }
}
