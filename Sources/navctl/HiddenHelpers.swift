import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl tabs` (hidden): the tab names, one a line, for shell completion.
struct Tabs: PrintsProperties {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("tabs")
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Print the tab names.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    static func lines(_ properties: NavigatorProperties) -> [String] {
        properties.tabs
    }
}

/// `navctl states` (hidden): the named states, one a line, for shell completion.
struct States: PrintsProperties {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("states")
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Print the named states.", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions

    static func lines(_ properties: NavigatorProperties) -> [String] {
        properties.states.keys.sorted()
    }
}

/// A hidden command that prints lines read from navd's properties, for shell completion.
protocol PrintsProperties: NavctlCommand {
    /// The lines to print.
    static func lines(_ properties: NavigatorProperties) -> [String]
}

extension PrintsProperties {
    func run() throws {
        let session = try Session(options)
        session.say(Self.lines(try session.client.send(.properties)))
    }
}
