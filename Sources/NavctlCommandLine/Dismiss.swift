import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl dismiss [--all]`: Dismiss or DismissAll.
struct Dismiss: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm("dismiss", words: .none, flags: ["--all"]) { _, flags in
        var command = Dismiss()
        command.all = flags.contains("--all")
        return command
    }
    static let abstract = "Dismiss the top modal layer (--all: every layer)."

    @OptionGroup var options: GlobalOptions
    @Flag(help: "Dismiss every layer on the path.") var all = false

    func run() throws {
        let session = try Session(options)
        if all {
            try session.change(.op(.dismissAll), .dismissAll)
        } else {
            try session.change(.op(.dismiss), .dismiss)
        }
    }
}
