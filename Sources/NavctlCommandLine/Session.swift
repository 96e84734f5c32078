import ArgumentParser
import NavdClient
import ClientCommandLine

/// One connection to navd for one command, with the output rules of GlobalOptions.
struct Session {
    let options: GlobalOptions
    let client: NavigatorClient

    /// Connects to the bus the options pick, to act on the navigator they pick (`--app`).
    init(_ options: GlobalOptions) throws(NavigatorError) {
        self.options = options
        client = try options.connection.client()
    }

    /// Prints `lines` (human output), each `terminalSafe`, unless `--quiet`.
    func say(_ lines: [String]) {
        guard !options.quiet else { return }
        for line in lines { print(line.terminalSafe) }
    }

    /// Prints one JSON document on one line, unless `--quiet`.
    func say(json: JSONValue) {
        guard !options.quiet else { return }
        print(json.encoded())
    }

    /// Prints what a reading command read: `json` with `--json`, else the human `lines`; each made only when printed.
    func say(json: () -> JSONValue, else lines: () -> [String]) {
        if options.json {
            say(json: json())
        } else {
            say(lines())
        }
    }

    /// Prints a tree (`navctl tree`, `navctl show`): its JSON with `--json`, else its revision and its drawing.
    func draw(_ tree: NavigationTree) {
        say(json: { tree.json }, else: { ["revision \(tree.revision)"] + tree.text() })
    }

    /// What a mutating call answered, for `change` to print: the revision it made, members appended to the JSON
    /// document (such as the new screen's `"id"`), and a note for the human line of the state, in brackets.
    struct Answered {
        var revision: UInt64
        var members: [(String, JSONValue)] = []
        var note: String? = nil
    }

    /// Runs a mutating call, then prints the state it left: `12 push rainbow: red > orange` or the state's JSON
    /// (with `"id"` when the call made a screen). `--quiet` skips the GetState, which is otherwise sent right
    /// behind the call, without waiting for its answer (`NavigatorClient.send(_:then:)`).
    ///
    /// The state is printed at the revision it was read at. When another client changed the tree between
    /// the call and the GetState, the two revisions differ and both are said: `12 push` on one line, then
    /// `14 state rainbow: …` (JSON: the state with cause `state`, and `"change": {"revision": 12, "cause": "push"}`).
    func change<Reply>(_ cause: ChangeCause, _ request: NavigatorRequest<Reply>, _ answered: (Reply) -> Answered)
        throws(NavigatorError)
    {
        guard !options.quiet else {
            _ = try client.send(request)
            return
        }
        let (reply, state) = try client.send(request, then: .getState)
        try report(cause, answered(reply), state: try state.get())
    }

    /// `change` for a call that answers its revision.
    func change(_ cause: ChangeCause, _ request: NavigatorRequest<UInt64>) throws(NavigatorError) {
        try change(cause, request) { Answered(revision: $0) }
    }

    /// Prints `state`, read after a call that answered `answered`, as `change` does.
    private func report(_ cause: ChangeCause, _ answered: Answered, state: VisibleState) {
        let cause = cause.rawValue
        let revision = answered.revision
        let current = state.revision == revision
        let suffix = answered.note.map { " (\($0))" } ?? ""
        if options.json {
            var json = state.json(cause: current ? cause : "state")
            if case .object(var members) = json {
                if !current {
                    members.append(("change", .object([("revision", .number(revision)), ("cause", .string(cause))])))
                }
                members.append(contentsOf: answered.members)
                json = .object(members)
            }
            say(json: json)
        } else if current {
            say([state.line(cause: cause) + suffix])
        } else {
            say(["\(revision) \(cause)\(suffix)", state.line(cause: "state")])
        }
    }

    /// The param types `route` declares, asking GetRoutes only when there are params to convert.
    func declaredTypes(for routes: Set<String>) throws(NavigatorError) -> [String: [String: String]] {
        guard !routes.isEmpty else { return [:] }
        var types: [String: [String: String]] = [:]
        for route in try client.send(.getRoutes) where routes.contains(route.name) { types[route.name] = route.params }
        return types
    }

    /// Reads `key=value` words whose types no route declares (event, flow and output params), by
    /// `RouteInfo.params(inferringFromAssignments:)`.
    func inferredParams(_ words: [String], declaredTypes: [String: String] = [:]) throws -> Params {
        do {
            return try RouteInfo.params(inferringFromAssignments: words, declaredTypes: declaredTypes)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Reads `key=value` words for `route`, converted to the types it declares.
    func params(_ words: [String], for route: String) throws -> Params {
        let types = words.isEmpty ? [:] : try declaredTypes(for: [route])[route] ?? [:]
        do {
            return try RouteInfo.params(fromAssignments: words, declaredTypes: types)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

// Shell completions, asked of the navigator the typed words pick (`--app` included; see
// `navigatorCompletion`).

/// Shell completion for route names.
let routeCompletion = navigatorCompletion { try $0.send(.getRoutes).map(\.name) }
/// Shell completion for tab names.
let tabCompletion = navigatorCompletion { try $0.send(.properties).tabs }
/// Shell completion for named states and route names (targets of `open` and `pop-to`).
let targetCompletion = navigatorCompletion { client in
    try client.send(.properties).states.keys.sorted() + client.send(.getRoutes).map(\.name)
}
/// Shell completion for the events the screen on top can send.
let eventCompletion = navigatorCompletion { try $0.send(.getEvents(source: "")).map(\.event) }
/// Shell completion for flow names: the flows on the tree, once each.
let flowCompletion = navigatorCompletion { client in
    var seen: Set<String> = []
    return try client.send(.getFlows).map(\.flow).filter { seen.insert($0).inserted }
}
/// Shell completion for `fact=` words: every declared fact.
let factCompletion = navigatorCompletion { try $0.send(.facts).keys.sorted().map { $0 + "=" } }

/// Checks `key=value` words before anything is sent, so a typo is a usage error (exit 2) even without navd.
func validateAssignments(_ words: [String]) throws {
    for word in words where !word.contains("=") || word.hasPrefix("=") {
        throw ValidationError("expected key=value, got '\(word)'")
    }
}
