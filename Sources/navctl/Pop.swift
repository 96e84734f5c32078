import ArgumentParser
import NavdClient

/// `navctl pop`: Pop.
struct Pop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pop", abstract: "Pop the top screen of the top stack.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("pop") { client throws(NavigatorError) in (try client.pop(), nil) }
    }
}
