import ArgumentParser
import NavdClient

/// `navctl tabs` (hidden): the tab names, one a line, for shell completion.
struct Tabs: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tabs", abstract: "Print the tab names.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        session.say(try session.client.properties().tabs)
    }
}

/// `navctl states` (hidden): the named states, one a line, for shell completion.
struct States: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "states", abstract: "Print the named states.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        session.say(try session.client.properties().states.keys.sorted())
    }
}
