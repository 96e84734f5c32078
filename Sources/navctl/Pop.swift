import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl pop`: Pop.
struct Pop: MakesChange {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("pop", Pop.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Pop the top screen of the top stack.")

    @OptionGroup var options: GlobalOptions

    var request: NavigatorRequest<UInt64> { .pop }
}
