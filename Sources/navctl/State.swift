import ArgumentParser
import NavdClient

/// `navctl state`: GetState.
struct State: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "state", abstract: "Print the revision, the selected tab and the path.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        let state = try session.client.state()
        if options.json {
            session.say(json: state.json(cause: "state"))
        } else {
            session.say([state.line(cause: "state")])
        }
    }
}
