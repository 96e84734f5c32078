import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl facts [key=value …]`: the `Facts` property, or SetFacts.
struct Facts: NavctlCommand {
    /// Left to ArgumentParser by the fast path (zero or more assignments is not one of its shapes); the name is
    /// the command's.
    static let form = CommandForm.parserOnly("facts")
    static let abstract = "List the facts, or set some of them (all or nothing)."
    static let discussion = """
        Without words: one fact a line, key=value (JSON: an object). With key=value words: SetFacts, printing \
        the state after it; each value is converted to the type of the fact's current value (signed-in=true).
        """

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("Facts to set.", valueName: "key=value"), completion: factCompletion)
    var assignments: [String] = []
    @Flag(help: ArgumentHelp("Print only the fact names followed by '=', one a line (for shell completion).",
                             visibility: .hidden))
    var names = false

    func validate() throws {
        try validateAssignments(assignments)
    }

    func run() throws {
        let session = try Session(options)
        let facts = try session.client.send(.facts)
        if names {
            session.say(facts.keys.sorted().map { $0 + "=" })
        } else if assignments.isEmpty {
            if options.json {
                session.say(json: facts.json)
            } else {
                session.say(facts.keys.sorted().map { "\($0)=\(facts[$0]!.text)" })
            }
        } else {
            let values = try session.inferredParams(assignments, declaredTypes: facts.mapValues(\.type.rawValue))
            try session.change(.op(.setFacts), .setFacts(values))
        }
    }
}
