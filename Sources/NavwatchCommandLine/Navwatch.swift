import ArgumentParser
import ClientCommandLine

/// navwatch's command line: configuration only; the loop is in WatchLoop.swift.
struct Navwatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navwatch",
        abstract: "Watch navd's navigation state live.",
        discussion: """
            On a terminal: a full-screen view (q, Ctrl-C to quit); the keys it shows send the top screen's events \
            (n next, r root, …) and navd decides what happens. Piped, or with --lines: one line per revision, \
            like '42 push rainbow: red > orange > yellow'. '-- navd gone' (JSON: {"event":"gone"}) marks navd \
            leaving; navwatch resyncs when it comes back. With --json, {"event":"flow-finished",…} follows the \
            state of a change that ended a flow. With --app NAME, navwatch follows that app's navigator: \
            when the app goes (its route file removed and reloaded) it shows the same gone marker \
            (JSON: {"event":"gone","app":NAME}) and when it comes back {"event":"back","app":NAME}, then its \
            state. Exit status: 0, or 3 when the bus cannot be reached (or navd, with --once), or 1 when \
            navd does not serve the app (with --once). With --inspect: a timeline of the kept revisions \
            (left/right move, Enter then y reverts to the revision shown, q quits); it needs a terminal \
            (exit 2 without one).
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "One line per revision, even on a terminal.")
    var lines = false

    @Flag(name: .long, help: """
        One JSON object per revision (the state's shape; {"event":"flow-finished",…} when a flow ends, \
        {"event":"gone"} when navd leaves).
        """)
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "One line per revision from a template with {revision} {cause} {tab} {top} {id} {depth} {path}.",
        valueName: "template"))
    var format: String?

    @Flag(name: .long, help: "Print the current state once and exit.")
    var once = false

    @Flag(name: .long, help: "Show the whole tree (every tab and layer) instead of the path.")
    var tree = false

    @Flag(name: .long, help: """
        A timeline of the kept revisions on the terminal: left/right move, Enter reverts to the revision \
        shown after y, q quits.
        """)
    var inspect = false

    func validate() throws {
        if [lines, json, format != nil].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --lines, --json and --format")
        }
        if inspect, lines || json || format != nil || once || tree {
            throw ValidationError("--inspect draws on the terminal: it takes none of --lines, --json, --format, --once and --tree")
        }
    }
}
