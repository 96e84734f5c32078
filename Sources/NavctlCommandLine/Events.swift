import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl events [--source ID]`: GetEvents.
struct Events: Listing {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.listing("events", Events.self, options: ["--source"]) { command, options in
        command.source = options.first?.value ?? ""
    }
    static let abstract = "List the events a screen can send, inner scopes first."
    static let discussion = "One a line: the event and the scope whose handler takes it (route, flow:NAME, tab or app)."

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("The id of a screen on the path (default: the screen on top).", valueName: "id"))
    var source = ""
    @Flag(help: ArgumentHelp("Print only the event names, one a line (for shell completion).", visibility: .hidden))
    var names = false

    var request: NavigatorRequest<[EventInfo]> { .getEvents(source: source) }
    static func json(_ event: EventInfo) -> JSONValue { event.json }
    func names(of events: [EventInfo]) -> [String] { events.map(\.event) }

    func lines(_ events: [EventInfo], session: Session) -> [String] {
        zip(events.map(\.event).paddedColumn, events).map { $0 + "  " + $1.scope }
    }
}
