import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl redo`: Redo.
struct Redo: MakesChange {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("redo", Redo.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Re-apply what the last undo undid.")

    @OptionGroup var options: GlobalOptions

    var request: NavigatorRequest<UInt64> { .redo }
}
