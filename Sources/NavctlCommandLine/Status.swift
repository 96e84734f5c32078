import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl status`: is navd there, its version, revision and bus.
struct Status: NavctlCommand {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.withoutWords("status", Status.self)
    static let abstract = "Say whether navd is running, and its version, revision and bus (exit 3 when it is not)."
    static let discussion = "With --app, the revision and top are that app's (exit 1 when navd does not serve it)."

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let session: Session
        do {
            session = try Session(options)
        } catch {
            report(absentOn: options.bus.displayName, error)
        }
        let owner = try session.client.send(.navdOwner)
        guard let owner else {
            report(absentOn: session.client.busDescription,
                   .unreachable(bus: session.client.busDescription, reason: "\(Navigator.busName) has no owner"))
        }
        let properties = try session.client.send(.properties)
        if options.json {
            session.say(json: .object([
                ("running", .bool(true)), ("bus", .string(session.client.busDescription)), ("owner", .string(owner)),
                ("version", .string(properties.version)), ("revision", .number(properties.revision)),
                ("tab", .string(properties.selectedTab)), ("tabs", .array(properties.tabs.map(JSONValue.string))),
                ("top", .string(properties.top)), ("topId", .string(properties.topID)),
                ("depth", .int(Int64(properties.depth))),
                ("canUndo", .bool(properties.canUndo)), ("canRedo", .bool(properties.canRedo)),
            ] + (options.connection.app.map { [("app", JSONValue.string($0))] } ?? [])))
        } else {
            let tab = properties.selectedTab.isEmpty ? "" : ", tab \(properties.selectedTab)"
            let app = options.connection.app.map { "app \($0): " } ?? ""
            session.say([
                "navd \(properties.version) is running on \(session.client.busDescription) as \(owner)",
                "\(app)revision \(properties.revision)\(tab), top \(properties.top), depth \(properties.depth)"
                    + ", undo \(properties.canUndo ? "yes" : "no"), redo \(properties.canRedo ? "yes" : "no")",
            ])
        }
    }

    /// Prints that navd is absent (JSON: `{"running": false, "bus": …}`) and the hint, then exits 3.
    func report(absentOn bus: String, _ error: NavigatorError) -> Never {
        if options.json && !options.quiet {
            print(JSONValue.object([("running", .bool(false)), ("bus", .string(bus))]).encoded())
        }
        terminate(withStatus: reportNavigatorError(error))
    }
}
