import ArgumentParser
import NavdClient

/// `navctl send EVENT [key=value …] [--source ID] [--expect REVISION]`: Send.
struct Send: NavctlCommand {
    /// Left to ArgumentParser by the fast path (it takes options with values); the name is the command's.
    static let form = CommandForm.parserOnly("send")
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "Report an event from a screen; navd's handlers decide what changes.",
        discussion: """
            Prints the state after the event, followed by the outcome in brackets: applied, redirected, resumed, \
            finished or ignored. Event params are typed by their text: an integer when it reads as one, true and \
            false as bools, anything else a string; key:string=42 (or :int, :double, :bool) names the type.
            """)

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
        let answer = try session.client.send(event, params: values, source: source, expectedRevision: expect)
        try session.report("send", revision: answer.revision, members: [("outcome", .string(answer.outcome.rawValue))],
                           note: answer.outcome.rawValue)
    }
}
