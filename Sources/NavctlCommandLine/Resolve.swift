import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl resolve event NAME [key=value …]` and `navctl resolve link LINK`: Resolve, a dry run.
struct Resolve: NavctlCommand {
    /// What is resolved.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case event, link
    }

    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("resolve")
    static let abstract = "Say what an event from the screen on top, or opening a link, would do, without doing it."
    static let discussion = """
        Prints the path the tree would have with the outcome in brackets, then the trace: the scopes tried, \
        the handler chosen, the guards checked. Fails with the error the real call would get.
        """

    @OptionGroup var options: GlobalOptions
    @Argument(help: "event or link.") var kind: Kind
    @Argument(help: "The event's name, or a link or named state.") var target: String
    @Argument(help: ArgumentHelp("Params of the event (not for a link).", valueName: "key=value")) var params: [String] = []

    func validate() throws {
        if kind == .link && !params.isEmpty { throw ValidationError("a link takes no key=value params") }
        try validateAssignments(params)
    }

    func run() throws {
        let session = try Session(options)
        let resolved: Resolution
        switch kind {
        case .event: resolved = try session.client.send(.resolve(event: target, params: try session.inferredParams(params)))
        case .link: resolved = try session.client.send(.resolve(link: target))
        }
        session.say(json: { resolved.json }, else: { resolved.lines })
    }
}
