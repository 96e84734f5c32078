#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl history [-n N]`: History.
struct History: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("history")
    static let abstract = "List the newest changes, newest first."

    @OptionGroup var options: GlobalOptions
    @Option(name: .customShort("n"), help: ArgumentHelp("How many changes.", valueName: "count")) var count: UInt32 = 10

    func run() throws {
        let session = try Session(options)
        let items = try session.client.send(.history(limit: count))
        session.say(json: {
            .array(items.map { item in
                .object([("revision", .number(item.revision)), ("cause", .string(item.cause)), ("time", .int(item.time))])
            })
        }, else: { items.map { "\($0.revision)  \($0.cause.padding(to: 10))  \(localTime($0.time))" } })
    }
}
