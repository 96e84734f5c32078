import ArgumentParser
import NavdClient

/// `navctl undo`: Undo.
struct Undo: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("undo", words: .none) { _, _ in Undo() }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Bring back the tree as it was before the last change.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("undo") { client throws(NavigatorError) in (try client.undo(), nil) }
    }
}
