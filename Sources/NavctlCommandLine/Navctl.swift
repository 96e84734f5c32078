import ArgumentParser

/// The root command: configuration only; the list of subcommands is in Commands.swift.
struct Navctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navctl",
        abstract: "Drive navd, the navigation coordinator, over D-Bus.",
        discussion: """
            Exit status: 0 success, 1 navd refused (its error on stderr), 2 usage error, \
            3 navd unreachable.
            """,
        subcommands: commands.map { $0 as ParsableCommand.Type }
    )

    /// The form of the subcommand called `name`, read from the commands' own declarations (without asking
    /// ArgumentParser, whose `_commandName` costs a runtime conformance scan at start-up).
    static func form(named name: String) -> CommandForm? {
        var index = 0
        while index < commands.count {
            let form = commands[index].form
            if form.name == name { return form }
            index += 1
        }
        return nil
    }

    /// Every subcommand name and ArgumentParser's `help`, for moving global flags behind it.
    static let subcommandNames = Set(commands.map { $0.form.name } + ["help"])
}
