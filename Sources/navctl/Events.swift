import ArgumentParser
import NavdClient

/// `navctl events [--source ID]`: GetEvents.
struct Events: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("events", words: .none, flags: ["--names"], options: ["--source"]) { _, flags, options in
        var command = Events()
        command.names = flags.contains("--names")
        command.source = options.first?.value ?? ""
        return command
    }
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "List the events a screen can send, inner scopes first.",
        discussion: "One a line: the event and the scope whose handler takes it (route, flow:NAME, tab or app).")

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("The id of a screen on the path (default: the screen on top).", valueName: "id"))
    var source = ""
    @Flag(help: ArgumentHelp("Print only the event names, one a line (for shell completion).", visibility: .hidden))
    var names = false

    func run() throws {
        let session = try Session(options)
        let events = try session.client.events(source: source)
        if names {
            session.say(events.map(\.event))
        } else if options.json {
            session.say(json: .array(events.map(\.json)))
        } else {
            let width = events.map(\.event.count).max() ?? 0
            session.say(events.map { $0.event.padding(to: width) + "  " + $0.scope })
        }
    }
}
