import ClientCommandLine
import NavdClient

/// What a key press asks the loop to do.
enum KeyAction: Equatable {
    /// Nothing.
    case nothing
    /// Quit navwatch.
    case quit
    /// Send this event with the screen on top as its source.
    case send(event: String)
}

/// What navwatch shows; the loop tells it what happened, it decides how that looks.
protocol Renderer: AnyObject {
    /// Whether it draws titles, colours and tabs (then the loop fetches routes and tabs on every resync).
    var wantsGraph: Bool { get }
    /// Whether it needs the whole tree with every change (`--tree`).
    var wantsTree: Bool { get }
    /// Shows a state (a signal's, or one navwatch fetched with cause `state`), with the tree when asked for.
    func show(_ change: StateChange, tree: NavigationTree?)
    /// Route descriptions (titles, colours) and tab names, fetched at start and on every resync.
    func useGraph(routes: [RouteInfo], tabs: [String])
    /// Whether it offers the top screen's events as keys and labels flows (then the loop fetches GetEvents and
    /// GetFlows whenever the screen on top changes).
    var wantsEvents: Bool { get }
    /// The events the screen on top can send and the flow instances in the tree, fetched when the top changes,
    /// just before the state is shown (which draws them).
    func useEvents(_ events: [EventInfo], flows: [FlowInfo])
    /// navd's `FlowFinished`.
    func flowFinished(_ finished: FlowFinished)
    /// What navd answered to an event the user sent with a key.
    func sent(_ event: String, _ answer: Result<EventOutcome, NavigatorError>)
    /// navd left the bus (or was not there at start), or the followed app went (or was not there at start).
    func navdGone()
    /// The followed app (`--app`) answers again after `navdGone`; its state follows with `show`.
    func appBack()
    /// A keyboard byte, and what it asks for.
    func key(_ byte: UInt8) -> KeyAction
    /// The terminal changed size.
    func resized()
    /// Leaves the output clean (terminal restored, everything flushed).
    func finish()
}

extension Renderer {
    var wantsGraph: Bool { false }
    func useGraph(routes: [RouteInfo], tabs: [String]) {}
    var wantsEvents: Bool { false }
    func useEvents(_ events: [EventInfo], flows: [FlowInfo]) {}
    func flowFinished(_ finished: FlowFinished) {}
    func appBack() {}
    func sent(_ event: String, _ answer: Result<EventOutcome, NavigatorError>) {}
    func key(_ byte: UInt8) -> KeyAction { .nothing }
    func resized() {}
    func finish() {}
}

/// Line-oriented output: `--lines`, `--format`, `--json`, with or without `--tree`; `--json` also reports
/// `FlowFinished`, and with `--app` names the app in its gone event and says when it is back.
///
/// Never writes the same text twice in a row, and writes each entry in one `write` (no buffering),
/// so a reader of the pipe sees it at once.
final class LineRenderer: Renderer {
    enum Style {
        case lines
        case template(String)
        case json
    }

    let style: Style
    let wantsTree: Bool
    /// The app followed (`--app`), nil for the default navigator.
    let app: String?
    private var lastText: String?

    init(style: Style, tree: Bool, app: String? = nil) {
        self.style = style
        self.wantsTree = tree
        self.app = app
    }

    func show(_ change: StateChange, tree: NavigationTree?) {
        switch style {
        case .json:
            if let tree, case .object(var members) = tree.json {
                members.insert(("cause", .string(change.cause)), at: 1)
                emit(JSONValue.object(members).encoded())
            } else {
                emit(change.json.encoded())
            }
        case .lines:
            emit(lines: [change.line] + (tree?.text().map { "  " + $0 } ?? []))
        case .template(let template):
            emit(lines: [change.state.format(template, cause: change.cause)] + (tree?.text().map { "  " + $0 } ?? []))
        }
    }

    /// `--json` only: `{"event": "flow-finished", …}`; the other styles show states only.
    func flowFinished(_ finished: FlowFinished) {
        guard case .json = style else { return }
        emit(finished.json.encoded())
    }

    /// `-- navd gone` whatever went, navd or the followed app (a script waits for one marker); `--json`:
    /// `{"event":"gone"}`, with `"app"` when following an app.
    func navdGone() {
        switch style {
        case .json: emit(Self.event("gone", app: app).encoded())
        default: emit(lines: ["-- navd gone"])
        }
    }

    /// `--json` only: `{"event":"back","app":NAME}` before the state of an app that answers again; the other
    /// styles just show the state.
    func appBack() {
        guard case .json = style else { return }
        emit(Self.event("back", app: app).encoded())
    }

    /// `{"event": NAME}`, with `"app"` when following one.
    static func event(_ name: String, app: String?) -> JSONValue {
        .object([("event", .string(name))] + (app.map { [("app", JSONValue.string($0))] } ?? []))
    }

    /// Writes `lines` as one entry, each line `terminalSafe` (a newline inside a line is shown as `\\n`).
    private func emit(lines: [String]) {
        emit(lines.map(\.terminalSafe).joined(separator: "\n"))
    }

    /// Writes one entry: JSON (which escapes every control itself) or lines made safe by `emit(lines:)`.
    private func emit(_ text: String) {
        guard text != lastText else { return }
        lastText = text
        writeOut(text + "\n")
    }
}
