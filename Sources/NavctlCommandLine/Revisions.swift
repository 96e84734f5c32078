import ArgumentParser
import ClientCommandLine
import NavdClient

// The devtools commands over the kept revisions (docs/devtools.md): show one, compare two, go back to one.

/// `navctl show REV`: GetTreeAt, drawn as `navctl tree` draws the current tree.
struct Show: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("show")
    static let abstract = "Draw the tree as it was at a kept revision (0: the current one)."
    static let discussion = "The kept revisions are the current one, every revision history lists, and the one before the oldest of those."

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The revision.", valueName: "revision")) var revision: UInt64

    func run() throws {
        let session = try Session(options)
        session.draw(try session.client.send(.getTreeAt(revision)).tree)
    }
}

/// `navctl diff A B`: what differs between two kept revisions.
struct Diff: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("diff")
    static let abstract = "Show what differs between two kept revisions."
    static let discussion = "Screens removed (-) and added (+) with their routes and ids, the selected tab, facts and flows."

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The earlier revision.", valueName: "from")) var from: UInt64
    @Argument(help: ArgumentHelp("The later revision.", valueName: "to")) var to: UInt64

    func run() throws {
        let session = try Session(options)
        let difference = RevisionDifference(
            from: try session.client.send(.getTreeAt(from)), to: try session.client.send(.getTreeAt(to)))
        session.say(json: { difference.json }, else: { difference.text })
    }
}

/// `navctl revert REV [--expect N]`: Revert.
struct Revert: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("revert")
    static let abstract = "Bring back the tree and flows of a kept revision as one new change (facts stay)."

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The revision to go back to.", valueName: "revision")) var revision: UInt64
    @Option(help: ArgumentHelp("Refuse unless the tree is at this revision.", valueName: "revision")) var expect: UInt64 = 0

    func run() throws {
        try Session(options).change(.op(.revert), .revert(to: revision, expectedRevision: expect))
    }
}
