import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl undo`: Undo.
struct Undo: MakesChange {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("undo", Undo.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Bring back the tree as it was before the last change.")

    @OptionGroup var options: GlobalOptions

    var request: NavigatorRequest<UInt64> { .undo }
}
