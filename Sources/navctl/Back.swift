import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl back`: Back.
struct Back: MakesChange {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("back", Back.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Do what a back button does: pop, else dismiss.")

    @OptionGroup var options: GlobalOptions

    var request: NavigatorRequest<UInt64> { .back }
}
