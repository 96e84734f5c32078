import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl tree`: GetTree, drawn with tabs, stacks and modals.
struct Tree: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("tree", Tree.self)
    static let abstract = "Draw the whole tree: every tab, stack and modal layer."
    static let discussion = "* marks the selected tab; a layer is indented under the screen that presented it."

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        session.draw(try session.client.send(.getTree))
    }
}
