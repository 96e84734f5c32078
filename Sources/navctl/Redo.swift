import ArgumentParser
import NavdClient

/// `navctl redo`: Redo.
struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Re-apply what the last undo undid.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("redo") { client throws(NavigatorError) in (try client.redo(), nil) }
    }
}
