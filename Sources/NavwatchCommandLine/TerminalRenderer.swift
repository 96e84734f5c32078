#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// The full-screen view on the terminal (`TerminalView` on the alternate screen): redrawn in place on every
/// change and resize; `q` quits, and the keys of the top screen's events send them.
final class TerminalRenderer: Renderer {
    let wantsTree: Bool
    let wantsGraph = true
    let wantsEvents = true
    let terminal = Terminal()
    private var view: TerminalView

    init(tree: Bool, color: Bool, unicode: Bool) {
        wantsTree = tree
        view = TerminalView(palette: Palette(enabled: color), unicode: unicode)
        terminal.enter()
    }

    func useGraph(routes: [RouteInfo], tabs: [String]) {
        view.routes = Dictionary(routes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        view.tabs = tabs
    }

    func show(_ change: StateChange, tree: NavigationTree?) {
        view.change = change
        view.tree = tree
        view.isGone = false
        draw()
    }

    func useEvents(_ events: [EventInfo], flows: [FlowInfo]) {
        view.keys = EventKeys(events.map(\.event))
        view.flows = flows
    }

    func flowFinished(_ finished: FlowFinished) {
        view.note = finished.isAbandoned ? "\(finished.end.flow) abandoned" : "\(finished.end.flow) finished: \(finished.end.output)"
        draw()
    }

    func sent(_ event: String, _ answer: Result<EventOutcome, NavigatorError>) {
        switch answer {
        case .success(let outcome): view.note = "\(event): \(outcome.outcome.rawValue)"
        case .failure(let error): view.note = "\(event): \(error.shortName ?? "failed")"
        }
        draw()
    }

    func navdGone() {
        view.isGone = true
        draw()
    }

    func key(_ byte: UInt8) -> KeyAction {
        if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") { return .quit }
        return view.keys.event(for: byte).map { .send(event: $0) } ?? .nothing
    }

    func resized() {
        writeOut("\u{1B}[2J")
        draw()
    }

    func finish() { terminal.leave() }

    func draw() {
        let size = terminal.size()
        writeOut(view.canvas(rows: size.rows, columns: size.columns).rendered())
    }
}
