import ArgumentParser
import NavdClient

/// `navctl tabs` (hidden): the tab names, one a line, for shell completion.
struct Tabs: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("tabs")
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Print the tab names.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        session.say(try session.client.properties().tabs)
    }
}

/// `navctl states` (hidden): the named states, one a line, for shell completion.
struct States: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("states")
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Print the named states.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        session.say(try session.client.properties().states.keys.sorted())
    }
}
