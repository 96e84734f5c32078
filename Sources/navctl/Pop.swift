import ArgumentParser
import NavdClient

/// `navctl pop`: Pop.
struct Pop: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("pop", words: .none) { _, _ in Pop() }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Pop the top screen of the top stack.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("pop") { client throws(NavigatorError) in (try client.pop(), nil) }
    }
}
