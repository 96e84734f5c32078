import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl reload`: `Reload` (with `--app`, that app's route file; else every route file), then the revision
/// of the navigator it acted on: `12 reload` (JSON: `{"revision": 12, "cause": "reload"}`). A file that does
/// not load is refused with `InvalidRouteFile` (exit 1), each refused file on a line of its own.
struct Reload: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("reload", Reload.self)
    static let abstract = "Reload the route files (with --app: that app's) and print the revision after it."
    static let discussion = """
        Apps appear and go with their files in navd's apps folder. A file that does not load is refused \
        as a whole (its navigator keeps its graph) and each one is printed as FILE:LINE: KEY: PROBLEM \
        (exit 1); the others are still reloaded.
        """

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        let revision = try session.client.send(.reload)
        session.say(json: { .object([("revision", .number(revision)), ("cause", .string("reload"))]) },
                    else: { ["\(revision) reload"] })
    }
}
