import ArgumentParser
import NavdClient

/// `navctl tab NAME`: SelectTab.
struct Tab: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("tab", words: .one) { words, _ in
        var command = Tab()
        command.name = words[0]
        return command
    }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Select a tab.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tab's name.", completion: tabCompletion) var name: String

    func run() throws {
        try Session(options).change("selecttab") { client throws(NavigatorError) in (try client.selectTab(name), nil) }
    }
}
