import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl tabs` (hidden): the tab names, one a line, for shell completion.
struct Tabs: PrintsProperties {
    static let name = "tabs", abstract = "Print the tab names."

    @OptionGroup var options: GlobalOptions

    static func lines(_ properties: NavigatorProperties) -> [String] {
        properties.tabs
    }
}

/// `navctl states` (hidden): the named states, one a line, for shell completion.
struct States: PrintsProperties {
    static let name = "states", abstract = "Print the named states."

    @OptionGroup var options: GlobalOptions

    static func lines(_ properties: NavigatorProperties) -> [String] {
        properties.states.keys.sorted()
    }
}

/// A hidden command that prints lines read from navd's properties, for shell completion; the fast path leaves
/// it to ArgumentParser.
protocol PrintsProperties: NavctlCommand {
    /// The command's name.
    static var name: String { get }
    /// The lines to print.
    static func lines(_ properties: NavigatorProperties) -> [String]
}

extension PrintsProperties {
    static var form: CommandForm { .parserOnly(name) }
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, shouldDisplay: false)
    }

    func run() throws {
        let session = try Session(options)
        session.say(Self.lines(try session.client.send(.properties)))
    }
}
