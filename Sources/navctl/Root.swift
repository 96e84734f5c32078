import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl root`: PopToRoot.
struct Root: MakesChange {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("root", Root.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Pop the top stack to its root screen.")
    static let cause = "poptoroot"

    @OptionGroup var options: GlobalOptions

    var request: NavigatorRequest<UInt64> { .popToRoot }
}
