import ArgumentParser
import NavdClient

/// `navctl tab NAME`: SelectTab.
struct Tab: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tab", abstract: "Select a tab.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tab's name.", completion: tabCompletion) var name: String

    func run() throws {
        try Session(options).change("selecttab") { client throws(NavigatorError) in (try client.selectTab(name), nil) }
    }
}
