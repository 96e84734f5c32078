import ArgumentParser

/// The root command: configuration only; each subcommand lives in its own file.
struct Navctl: ParsableCommand {
    /// Every subcommand, once: ArgumentParser's subcommands, the fast path's table and the names global flags
    /// move behind all come from this list.
    static let commands: [any NavctlCommand.Type] = [
        Push.self, Pop.self, PopTo.self, Root.self, Replace.self, SetStack.self, Present.self,
        Dismiss.self, Back.self, Tab.self, Open.self, Apply.self, Undo.self, Redo.self,
        Send.self, Start.self, Finish.self, Facts.self, Flows.self, Events.self, Resolve.self,
        State.self, Tree.self, Routes.self, History.self, Status.self, Apps.self, Reload.self,
        Show.self, Diff.self, Revert.self,
        Tabs.self, States.self,
    ]

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
