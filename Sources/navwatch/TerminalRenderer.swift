#if canImport(Glibc)
import Glibc
#endif
import NavdClient

/// The full-screen view on the terminal (`TerminalView` on the alternate screen): redrawn in place on every
/// change and resize; `q` quits.
final class TerminalRenderer: Renderer {
    let wantsTree: Bool
    let wantsGraph = true
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

    func navdGone() {
        view.isGone = true
        draw()
    }

    func key(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") }

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
