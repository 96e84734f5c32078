import ArgumentParser
import NavdClient

/// `navctl undo`: Undo.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Bring back the tree as it was before the last change.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try Session(options).change("undo") { client throws(NavigatorError) in (try client.undo(), nil) }
    }
}
