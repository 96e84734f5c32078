import ArgumentParser
import ClientCommandLine
import NavdClient

// Every subcommand's place in navctl, and the commands that are one request with no words or one word: adding
// such a command is one edit here (its declaration, a `PlainChange` or a `TakesTarget`, and its place in the
// list); a larger command has its own file and its line in the list.

extension Navctl {
    /// Every subcommand, once, in the order help lists them: ArgumentParser's subcommands, the fast path's table
    /// and the names global flags move behind all come from this list.
    static let commands: [any NavctlCommand.Type] = [
        Push.self, Pop.self, PopTo.self, Root.self, Replace.self, SetStack.self, Present.self,
        Dismiss.self, Back.self, Tab.self, Open.self, Apply.self, Undo.self, Redo.self,
        Send.self, Start.self, Finish.self, Facts.self, Flows.self, Events.self, Resolve.self,
        State.self, Tree.self, Routes.self, History.self, Status.self, Apps.self, Reload.self,
        Show.self, Diff.self, Revert.self, Export.self, Replay.self, LimitsCommand.self,
        Tabs.self, States.self,
    ]
}

/// `navctl pop`: Pop.
struct Pop: PlainChange {
    static let name = "pop", abstract = "Pop the top screen of the top stack."
    @OptionGroup var options: GlobalOptions
    var request: NavigatorRequest<UInt64> { .pop }
}

/// `navctl pop-to TARGET`: PopTo.
struct PopTo: TakesTarget {
    static let name = "pop-to", abstract = "Pop until a screen (by id, or the nearest with a route) is on top."
    @OptionGroup var options: GlobalOptions
    @Argument(help: "A screen id or a route name.", completion: routeCompletion) var target: String
    var request: NavigatorRequest<UInt64> { .popTo(target) }
}

/// `navctl root`: PopToRoot.
struct Root: PlainChange {
    static let name = "root", abstract = "Pop the top stack to its root screen."
    @OptionGroup var options: GlobalOptions
    var request: NavigatorRequest<UInt64> { .popToRoot }
}

/// `navctl back`: Back.
struct Back: PlainChange {
    static let name = "back", abstract = "Do what a back button does: pop, else dismiss."
    @OptionGroup var options: GlobalOptions
    var request: NavigatorRequest<UInt64> { .back }
}

/// `navctl tab NAME`: SelectTab.
struct Tab: TakesTarget {
    static let name = "tab", abstract = "Select a tab."
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tab's name.", completion: tabCompletion) var name: String
    var request: NavigatorRequest<UInt64> { .selectTab(name) }
    var target: String {
        get { name }
        set { name = newValue }
    }
}

/// `navctl open LINK|STATE`: Open.
struct Open: TakesTarget {
    static let name = "open", abstract = "Go to a deep link (/news/7, /rainbow/orange) or a named state (root, end)."
    @OptionGroup var options: GlobalOptions
    @Argument(help: "A link or a state name.", completion: targetCompletion) var target: String
    var request: NavigatorRequest<UInt64> { .open(target) }
}

/// `navctl undo`: Undo.
struct Undo: PlainChange {
    static let name = "undo", abstract = "Bring back the tree as it was before the last change."
    @OptionGroup var options: GlobalOptions
    var request: NavigatorRequest<UInt64> { .undo }
}

/// `navctl redo`: Redo.
struct Redo: PlainChange {
    static let name = "redo", abstract = "Re-apply what the last undo undid."
    @OptionGroup var options: GlobalOptions
    var request: NavigatorRequest<UInt64> { .redo }
}

/// `navctl limits`: GetLimits.
struct LimitsCommand: NavctlCommand {
    static let form = CommandForm.withoutWords("limits", LimitsCommand.self)
    static let abstract = "Print the limits navd enforces here, each by its route-file key."
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        let limits = try session.client.send(.getLimits)
        session.say(json: { .object(limits.map { ($0.name, .unsigned(UInt64($0.value))) }) }, else: {
            zip(limits.map(\.name).paddedColumn, limits).map { "\($0)  \($1.value)" }
        })
    }
}
