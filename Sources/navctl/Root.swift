import ArgumentParser
import NavdClient

/// `navctl root`: PopToRoot.
struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "root", abstract: "Pop the top stack to its root screen.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("poptoroot") { client throws(NavigatorError) in (try client.popToRoot(), nil) }
    }
}
