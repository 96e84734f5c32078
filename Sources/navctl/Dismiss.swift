import ArgumentParser
import NavdClient

/// `navctl dismiss [--all]`: Dismiss or DismissAll.
struct Dismiss: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dismiss", abstract: "Dismiss the top modal layer (--all: every layer).")

    @OptionGroup var options: GlobalOptions
    @Flag(help: "Dismiss every layer on the path.") var all = false

    func run() throws {
        let session = try Session(options)
        if all {
            try session.change("dismissall") { client throws(NavigatorError) in (try client.dismissAll(), nil) }
        } else {
            try session.change("dismiss") { client throws(NavigatorError) in (try client.dismiss(), nil) }
        }
    }
}
