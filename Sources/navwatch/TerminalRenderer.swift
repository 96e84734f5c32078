#if canImport(Glibc)
import Glibc
#endif
import NavdClient

/// The full-screen view: tab bar, breadcrumb, the top screen of each stack on the path drawn as a card
/// in its route's colour (each modal layer over the card below it, a sheet smaller than a cover),
/// and a status line with the revision and cause. Redrawn in place on every change and resize.
final class TerminalRenderer: Renderer {
    let wantsTree: Bool
    let wantsGraph = true
    let terminal = Terminal()
    let palette: Palette
    let unicode: Bool
    private var routes: [String: RouteInfo] = [:]
    private var change: StateChange?
    private var tree: NavigationTree?
    private var isGone = false
    private var tabs: [String] = []

    init(tree: Bool, color: Bool, unicode: Bool) {
        wantsTree = tree
        palette = Palette(enabled: color)
        self.unicode = unicode
        terminal.enter()
    }

    func useGraph(routes: [RouteInfo], tabs: [String]) {
        self.routes = Dictionary(routes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tabs = tabs
    }

    func show(_ change: StateChange, tree: NavigationTree?) {
        self.change = change
        self.tree = tree
        isGone = false
        draw()
    }

    func navdGone() {
        isGone = true
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
        var canvas = Canvas(rows: size.rows, columns: size.columns)
        drawTabs(&canvas)
        drawBreadcrumb(&canvas)
        let area = (row: 3, column: 1, height: max(canvas.rows - 5, 1), width: max(canvas.columns - 2, 1))
        if let tree {
            for (index, line) in tree.text(useUnicode: unicode).enumerated() where index < area.height {
                canvas.text(line, row: area.row + index, column: area.column, style: "")
            }
        } else if let change {
            drawCards(&canvas, path: change.state.path, area: area)
        }
        if isGone {
            let message = " navd gone - waiting for it to come back "
            let row = area.row + area.height / 2
            canvas.fill(row: row - 1, column: 0, height: 3, width: canvas.columns, style: palette.alert)
            canvas.centered(message, row: row, column: 0, width: canvas.columns, style: palette.alert)
        }
        drawStatus(&canvas)
        writeOut(canvas.rendered())
    }

    private func drawTabs(_ canvas: inout Canvas) {
        let tabs = tree?.nodes.filter { $0.kind == .tab }.map(\.name) ?? self.tabs
        let selected = change?.state.tab ?? ""
        guard !tabs.isEmpty else {
            canvas.text(" (no tabs)", row: 0, column: 0, style: palette.dim)
            return
        }
        var column = 1
        for tab in tabs {
            let label = tab == selected ? "[\(tab)]" : " \(tab) "
            canvas.text(label, row: 0, column: column, style: tab == selected ? palette.selectedTab : "")
            column += label.count + 2
        }
    }

    private func drawBreadcrumb(_ canvas: inout Canvas) {
        guard let change else { return }
        var text = change.state.pathText
        let width = canvas.columns - 2
        if text.count > width { text = "…" + String(text.suffix(max(width - 1, 0))) }
        canvas.text(text, row: 1, column: 1, style: "")
    }

    private func drawStatus(_ canvas: inout Canvas) {
        let row = canvas.rows - 1
        canvas.fill(row: row, column: 0, height: 1, width: canvas.columns, style: palette.status)
        var text = " q quits"
        if let change {
            text = " rev \(change.revision) | \(change.cause) | depth \(change.state.path.count)"
                + (isGone ? " | navd gone" : "") + " | q quits"
        } else if isGone {
            text = " navd gone | q quits"
        }
        canvas.text(text, row: row, column: 0, style: palette.status)
    }

    /// The path split into its stacks: the base stack, then one per modal layer.
    static func stacks(of path: [Entry]) -> [[Entry]] {
        var stacks: [[Entry]] = []
        for entry in path {
            if stacks.isEmpty || entry.presentation == .sheet || entry.presentation == .cover {
                stacks.append([entry])
            } else {
                stacks[stacks.count - 1].append(entry)
            }
        }
        return stacks
    }

    private func drawCards(_ canvas: inout Canvas, path: [Entry], area: (row: Int, column: Int, height: Int, width: Int)) {
        var rect = area
        for (index, stack) in Self.stacks(of: path).enumerated() {
            guard let top = stack.last else { continue }
            if index > 0 {
                let style = stack[0].presentation
                if style == .sheet {
                    // A sheet rises from the bottom, narrower, leaving the top third of the card below visible.
                    let inset = max(rect.width / 8, 3)
                    let drop = max(rect.height / 3, 5)
                    rect = (rect.row + drop, rect.column + inset, rect.height - drop, rect.width - 2 * inset)
                } else {
                    // A cover fills the card below but for its title, id and stack rows.
                    rect = (rect.row + 4, rect.column + 2, rect.height - 4, rect.width - 4)
                }
                if rect.height < 3 || rect.width < 8 { break }
            }
            drawCard(&canvas, stack: stack, top: top, layer: index > 0 ? stack[0].presentation.rawValue : nil, rect: rect)
        }
    }

    private func drawCard(_ canvas: inout Canvas, stack: [Entry], top: Entry, layer: String?,
                          rect: (row: Int, column: Int, height: Int, width: Int)) {
        let route = routes[top.route]
        let color = route?.color
        let style = palette.card(color)
        canvas.fill(row: rect.row, column: rect.column, height: rect.height, width: rect.width, style: style)
        if !palette.enabled || color == nil {
            canvas.box(row: rect.row, column: rect.column, height: rect.height, width: rect.width, style: style,
                       unicode: unicode)
        }
        let inner = (column: rect.column + 2, width: rect.width - 4)
        if let layer { canvas.text("[\(layer)]", row: rect.row, column: inner.column, style: style) }
        let title = route?.title ?? top.route
        let middle = rect.row + 1
        canvas.centered(title, row: middle, column: inner.column, width: inner.width, style: palette.title(color))
        var detail = "\(top.route)  (\(top.id))"
        for key in top.params.keys.sorted() { detail += "  \(key)=\(top.params[key]!.text)" }
        canvas.centered(detail, row: middle + 1, column: inner.column, width: inner.width, style: style)
        if stack.count > 1, rect.height >= 5 {
            let trail = stack.map(\.route).joined(separator: " > ")
            canvas.centered("\(stack.count) in stack: \(trail)", row: rect.row + 3, column: inner.column,
                            width: inner.width, style: style)
        }
    }
}
