import ArgumentParser
import NavdClient

/// `navctl root`: PopToRoot.
struct Root: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("root", words: .none) { _, _ in Root() }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Pop the top stack to its root screen.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("poptoroot") { client throws(NavigatorError) in (try client.popToRoot(), nil) }
    }
}
