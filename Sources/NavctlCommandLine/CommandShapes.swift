import ArgumentParser
import ClientCommandLine
import NavdClient

/// A command that makes one change and prints the state it left, through `Session.change`.
protocol MakesChange: NavctlCommand {
    /// The request that makes the change; it answers the revision it produced.
    var request: NavigatorRequest<UInt64> { get }
}

extension MakesChange {
    func run() throws {
        try Session(options).change(request.changeCause, request)
    }
}

/// A change declared in Commands.swift whose plain form is its name and at most one word.
protocol SmallChange: MakesChange {
    /// The command's name.
    static var name: String { get }
}

/// A change with no words (`navctl undo`).
protocol PlainChange: SmallChange {}

extension PlainChange {
    static var form: CommandForm { .withoutWords(name, Self.self) }
}

/// A change whose plain form is `NAME WORD`: a target, a tab.
protocol TakesTarget: SmallChange {
    /// The one word.
    var target: String { get set }
}

extension TakesTarget {
    static var form: CommandForm { .withTarget(name, Self.self) }
}

/// A command whose plain form is `NAME WORD [key=value …]`: a route, flow or output, then `key=value` params.
protocol TakesAssignments: NavctlCommand {
    /// The first word: the route, flow or output.
    var subject: String { get set }
    var params: [String] { get set }
}

extension TakesAssignments {
    func validate() throws {
        try validateAssignments(params)
    }
}

/// A command that adds one screen: a route, then its `key=value` params, converted to the types the route
/// declares; it prints the state with the new screen's id.
protocol AddsScreen: TakesAssignments {
    var route: String { get set }
    /// The request that adds the screen with the converted params.
    func request(params: Params) -> NavigatorRequest<AddedScreen>
}

extension AddsScreen {
    var subject: String {
        get { route }
        set { route = newValue }
    }

    func run() throws {
        let session = try Session(options)
        let values = try session.params(params, for: route)
        try session.change(request(params: [:]).changeCause, request(params: values)) {
            Session.Answered(revision: $0.revision, members: [("id", .string($0.id))])
        }
    }
}

extension CommandForm {
    /// The plain form `NAME`, without words.
    static func withoutWords<Command: NavctlCommand>(_ name: String, _ command: Command.Type) -> CommandForm {
        CommandForm(name, words: .none) { _, _ in Command() }
    }

    /// The plain form `NAME WORD`.
    static func withTarget<Command: TakesTarget>(_ name: String, _ command: Command.Type) -> CommandForm {
        CommandForm(name, words: .one) { words, _ in
            var command = Command()
            command.target = words[0]
            return command
        }
    }

    /// The plain form `NAME WORD [key=value …]`, with `flags` given to `finish`, which returns false when they
    /// are not a plain form.
    static func withAssignments<Command: TakesAssignments>(
        _ name: String, _ command: Command.Type, flags: [String] = [],
        finish: @escaping @Sendable (inout Command, [String]) -> Bool = { _, _ in true }
    ) -> CommandForm {
        CommandForm(name, words: .routeAndAssignments, flags: flags) { words, flags in
            var command = Command()
            command.subject = words[0]
            command.params = Array(words.dropFirst())
            return finish(&command, flags) ? command : nil
        }
    }

    /// The plain form of a command that adds a screen: `NAME ROUTE [key=value …]`.
    static func addingScreen<Command: AddsScreen>(
        _ name: String, _ command: Command.Type, flags: [String] = [],
        finish: @escaping @Sendable (inout Command, [String]) -> Bool = { _, _ in true }
    ) -> CommandForm {
        withAssignments(name, command, flags: flags, finish: finish)
    }
}
