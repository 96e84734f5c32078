import ArgumentParser
import NavdClient

/// `navctl back`: Back.
struct Back: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "back", abstract: "Do what a back button does: pop, else dismiss.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("back") { client throws(NavigatorError) in (try client.back(), nil) }
    }
}
