import ArgumentParser

/// The root command: configuration only; each subcommand lives in its own file.
struct Navctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navctl",
        abstract: "Drive navd, the navigation coordinator, over D-Bus.",
        discussion: """
            Exit status: 0 success, 1 navd refused (its error on stderr), 2 usage error, \
            3 navd unreachable.
            """,
        subcommands: [
            Push.self, Pop.self, PopTo.self, Root.self, Replace.self, SetStack.self, Present.self,
            Dismiss.self, Back.self, Tab.self, Open.self, Apply.self, Undo.self, Redo.self,
            State.self, Tree.self, Routes.self, History.self, Status.self,
            Tabs.self, States.self,
        ]
    )

    /// Every subcommand name, for moving global flags behind it. Written out because asking
    /// ArgumentParser (`_commandName`) costs a runtime conformance scan, a fifth of navctl's start-up;
    /// debug builds check the list against the configuration.
    static let subcommandNames: Set<String> = {
        let names: Set<String> = [
            "push", "pop", "pop-to", "root", "replace", "set-stack", "present", "dismiss", "back", "tab", "open",
            "apply", "undo", "redo", "state", "tree", "routes", "history", "status", "tabs", "states", "help",
        ]
        assert(Set(configuration.subcommands.map { $0._commandName } + ["help"]) == names, "subcommandNames is stale")
        return names
    }()
}
