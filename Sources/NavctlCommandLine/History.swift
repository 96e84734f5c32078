#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import DBus
import NavdClient
import NavigatorProtocol

/// `navctl history [-n N]`: the newest kept changes from GetChanges, newest first, each with its caller.
struct History: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("history")
    static let abstract = "List the newest changes, newest first, with who made them."

    @OptionGroup var options: GlobalOptions
    @Option(name: .customShort("n"), help: ArgumentHelp("How many changes.", valueName: "count")) var count: UInt32 = 10

    func run() throws {
        let session = try Session(options)
        // GetChanges lists oldest first from a revision: the newest `count` are the last of all kept ones.
        let items = Array(try session.client.send(.getChanges(from: 0, limit: .max)).suffix(Int(count)).reversed())
        session.say(json: { .array(items.map(Self.json)) }, else: {
            items.map { "\($0.revision)  \($0.cause.padding(to: 10))  \(localTime($0.time))  \($0.callerText)  \($0.afterText)" }
        })
    }

    /// The change as `--json` gives it: revision, cause and time as before, then method and every detail.
    static func json(_ change: RecordedChange) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("revision", .number(change.revision)), ("cause", .string(change.cause)), ("time", .int(change.time)),
            ("method", .string(change.method)),
        ]
        for key in ChangeDetail.allCases {
            if let value = change.details[key.rawValue] { members.append((key.rawValue, json(value))) }
        }
        return .object(members)
    }

    /// A D-Bus value as JSON for people to read (`RecordedCall.plainJSON`).
    static func json(_ value: DBusValue) -> JSONValue { RecordedCall.plainJSON(value) }
}
