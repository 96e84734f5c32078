import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl open LINK|STATE`: Open.
struct Open: TakesTarget {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withTarget("open", Open.self)
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "Go to a deep link (/news/7, /rainbow/orange) or a named state (root, end).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A link or a state name.", completion: targetCompletion) var target: String

    var request: NavigatorRequest<UInt64> { .open(target) }
}
