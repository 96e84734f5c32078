import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl tab NAME`: SelectTab.
struct Tab: TakesTarget {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withTarget("tab", Tab.self)
    static let configuration = CommandConfiguration(commandName: form.name, abstract: "Select a tab.")
    static let cause = "selecttab"

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tab's name.", completion: tabCompletion) var name: String

    var request: NavigatorRequest<UInt64> { .selectTab(name) }
}

extension Tab {
    var target: String {
        get { name }
        set { name = newValue }
    }
}
