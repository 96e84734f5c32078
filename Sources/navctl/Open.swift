import ArgumentParser
import NavdClient

/// `navctl open LINK|STATE`: Open.
struct Open: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("open", words: .one) { words, _ in
        var command = Open()
        command.target = words[0]
        return command
    }
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "Go to a deep link (/news/7, /rainbow/orange) or a named state (root, end).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A link or a state name.", completion: targetCompletion) var target: String

    func run() throws {
        try Session(options).change("open") { client throws(NavigatorError) in (try client.open(target), nil) }
    }
}
