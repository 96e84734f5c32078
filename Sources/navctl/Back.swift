import ArgumentParser
import NavdClient

/// `navctl back`: Back.
struct Back: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("back", words: .none) { _, _ in Back() }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Do what a back button does: pop, else dismiss.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("back") { client throws(NavigatorError) in (try client.back(), nil) }
    }
}
