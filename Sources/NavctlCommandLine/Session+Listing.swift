import ClientCommandLine
import NavdClient

/// A command that lists the reply of one request, and with the hidden flag `--names` only its names (for
/// shell completion): its `run` sends the request and prints the reply as `Session.list` does.
protocol Listing: NavctlCommand {
    /// What the reply lists.
    associatedtype Item
    /// Whether `--names` was given.
    var names: Bool { get set }
    /// The request whose reply is listed.
    var request: NavigatorRequest<[Item]> { get }
    /// The item as one element of `--json`'s array.
    static func json(_ item: Item) -> JSONValue
    /// What `--names` prints.
    func names(of items: [Item]) -> [String]
    /// The human lines; `session` is there for what the lines need to ask besides.
    func lines(_ items: [Item], session: Session) throws -> [String]
}

extension Listing {
    func run() throws {
        let session = try Session(options)
        let items = try session.client.send(request)
        try session.list(items, names: names ? self.names(of: items) : nil, json: Self.json) {
            try lines(items, session: session)
        }
    }
}

extension CommandForm {
    /// The plain form `NAME [--names]` with `options`, whose values (in the order given) `finish` reads.
    static func listing<Command: Listing>(
        _ name: String, _ command: Command.Type, options: [String] = [],
        finish: @escaping @Sendable (inout Command, [(name: String, value: String)]) -> Void = { _, _ in }
    ) -> CommandForm {
        CommandForm(name, words: .none, flags: ["--names"], options: options) { _, flags, options in
            var command = Command()
            command.names = flags.contains("--names")
            finish(&command, options)
            return command
        }
    }
}

extension Session {
    /// Prints a listing three ways: `names` (for shell completion) when given, else with `--json` one array of
    /// each item's `json`, else the human `lines`, asked for only then.
    func list<Item>(_ items: [Item], names: [String]?, json: (Item) -> JSONValue, lines: () throws -> [String]) rethrows {
        if let names {
            say(names)
        } else if options.json {
            say(json: .array(items.map(json)))
        } else {
            say(try lines())
        }
    }
}

extension Array where Element == String {
    /// The strings, `terminalSafe`, padded with spaces to the longest one's width: a table's first column.
    var paddedColumn: [String] {
        let safe = map(\.terminalSafe)
        let width = safe.map(\.count).max() ?? 0
        return safe.map { $0.padding(to: width) }
    }
}
