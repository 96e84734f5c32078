import ArgumentParser
import DBus

/// navwatch's command line: configuration only; the loop is in WatchLoop.swift.
struct Navwatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navwatch",
        abstract: "Watch navd's navigation state live.",
        discussion: """
            On a terminal: a full-screen view (q, Ctrl-C to quit). Piped, or with --lines: one line per revision, \
            like '42 push rainbow: red > orange > yellow'. '-- navd gone' (JSON: {"event":"gone"}) marks navd \
            leaving; navwatch resyncs when it comes back. Exit status: 0, or 3 when the bus cannot be reached \
            (or navd, with --once).
            """)

    @Flag(name: .long, help: "Talk to navd on the system bus (default: the session bus).")
    var system = false

    @Option(name: .long, help: ArgumentHelp("Talk to navd on the bus at this D-Bus address.", valueName: "address"))
    var address: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for navd's answer.", valueName: "seconds"))
    var timeout: Double = 25

    @Flag(name: .long, help: "One line per revision, even on a terminal.")
    var lines = false

    @Flag(name: .long, help: "One JSON object per revision (the state's shape; {\"event\":\"gone\"} when navd leaves).")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "One line per revision from a template with {revision} {cause} {tab} {top} {id} {depth} {path}.",
        valueName: "template"))
    var format: String?

    @Flag(name: .long, help: "Print the current state once and exit.")
    var once = false

    @Flag(name: .long, help: "Show the whole tree (every tab and layer) instead of the path.")
    var tree = false

    func validate() throws {
        if system && address != nil { throw ValidationError("--system and --address exclude each other") }
        if [lines, json, format != nil].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --lines, --json and --format")
        }
        if !(timeout > 0 && timeout < 2_000_000) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The bus the flags pick.
    var bus: BusAddress {
        if let address { return .address(address) }
        return system ? .system : .session
    }
}
