import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl pop-to TARGET`: PopTo.
struct PopTo: TakesTarget {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withTarget("pop-to", PopTo.self)
    static let configuration = CommandConfiguration(
        commandName: form.name,
        abstract: "Pop until a screen (by id, or the nearest with a route) is on top.")
    static let cause = "popto"

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A screen id or a route name.", completion: routeCompletion) var target: String

    var request: NavigatorRequest<UInt64> { .popTo(target) }
}
