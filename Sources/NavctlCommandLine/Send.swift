import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl send EVENT [key=value …] [--source ID] [--expect REVISION]`: Send.
struct Send: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("send", words: .routeAndAssignments, options: ["--source", "--expect"]) { words, _, options in
        var command = Send()
        command.event = words[0]
        command.params = Array(words.dropFirst())
        // Every field is set: a wrapped property's default is a definition until a value is assigned.
        command.source = ""
        command.expect = 0
        for option in options {
            if option.name == "--source" {
                command.source = option.value
            } else {
                guard let revision = UInt64(option.value) else { return nil }
                command.expect = revision
            }
        }
        return command
    }
    static let abstract = "Report an event from a screen; navd's handlers decide what changes."
    static let discussion = """
        Prints the state after the event, followed by the outcome in brackets: applied, redirected, resumed, \
        finished or ignored. Event params are typed by their text: an integer when it reads as one, true and \
        false as bools, anything else a string; key:string=42 (or :int, :double, :bool) names the type.
        """

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The event's name.", completion: eventCompletion) var event: String
    @Argument(help: ArgumentHelp("Params of the event.", valueName: "key=value")) var params: [String] = []
    @Option(help: ArgumentHelp("The id of the screen that sends it (default: the screen on top).", valueName: "id"))
    var source = ""
    @Option(help: ArgumentHelp("Fail with StaleRevision unless navd is at this revision.", valueName: "revision"))
    var expect: UInt64 = 0

    func validate() throws {
        try validateAssignments(params)
    }

    func run() throws {
        let session = try Session(options)
        let values = try session.inferredParams(params)
        try session.change(.op(.send), .send(event, params: values, source: source, expectedRevision: expect)) {
            Session.Answered(revision: $0.revision, members: [("outcome", .string($0.outcome.rawValue))], note: $0.outcome.rawValue)
        }
    }
}
