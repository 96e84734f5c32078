import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl state`: GetState.
struct State: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("state", State.self)
    static let abstract = "Print the revision, the selected tab and the path."

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        let state = try session.client.send(.getState)
        session.say(json: { state.json(cause: "state") }, else: { [state.line(cause: "state")] })
    }
}
