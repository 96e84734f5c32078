import ArgumentParser
import NavdClient

/// `navctl redo`: Redo.
struct Redo: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("redo", words: .none) { _, _ in Redo() }
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Re-apply what the last undo undid.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("redo") { client throws(NavigatorError) in (try client.redo(), nil) }
    }
}
