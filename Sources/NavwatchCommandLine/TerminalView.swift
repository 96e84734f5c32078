import ClientCommandLine
import NavdClient

/// What the full-screen view shows, drawn onto a `Canvas` of any size without touching the terminal:
/// tab bar, breadcrumb, the top screen of each stack on the path drawn as a card in its route's colour
/// (each modal layer over the card below it, a sheet smaller than a cover; a card whose stack holds a flow's
/// first screen labelled with the flow's name), the keys of the events the top screen can send, and a status
/// line with the revision, the cause and what the last event or flow did.
struct TerminalView {
    /// The fewest rows that hold the whole layout: tab bar, breadcrumb, a blank row, a card of at least one
    /// row, the keys line, the status line.
    static let fullLayoutRows = 6

    let palette: Palette
    let unicode: Bool
    /// Route descriptions (titles, colours) by name.
    var routes: [String: RouteInfo] = [:]
    /// The state shown, when there is one.
    var change: StateChange?
    /// The whole tree, drawn in place of the cards when there is one.
    var tree: NavigationTree?
    /// Whether navd has left the bus.
    var isGone = false
    /// The tab names, when there is no tree to read them from.
    var tabs: [String] = []
    /// The keys of the events the screen on top can send.
    var keys = EventKeys([])
    /// The flow instances in the tree, outer before inner.
    var flows: [FlowInfo] = []
    /// What the last event sent or flow finished did, for the status line.
    var note: String?

    /// The view drawn on a grid of `rows`×`columns`. Below `fullLayoutRows` rows only the tab bar, the
    /// breadcrumb and the status line are drawn, as many of them as fit; the status line always is.
    func canvas(rows: Int, columns: Int) -> Canvas {
        var canvas = Canvas(rows: rows, columns: columns)
        guard canvas.rows >= Self.fullLayoutRows else {
            if canvas.rows >= 3 { drawTabs(&canvas) }
            if canvas.rows >= 2 { drawBreadcrumb(&canvas, row: canvas.rows >= 3 ? 1 : 0) }
            drawStatus(&canvas)
            return canvas
        }
        drawTabs(&canvas)
        drawBreadcrumb(&canvas, row: 1)
        let area = (row: 3, column: 1, height: canvas.rows - 5, width: max(canvas.columns - 2, 1))
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
        drawKeys(&canvas)
        drawStatus(&canvas)
        return canvas
    }

    private func drawKeys(_ canvas: inout Canvas) {
        guard !isGone, !keys.bindings.isEmpty else { return }
        canvas.text(" " + keys.line(unicode: unicode), row: canvas.rows - 2, column: 0, style: "")
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
            // Measured as drawn: the canvas shows text from the bus `terminalSafe`.
            let label = (tab == selected ? "[\(tab)]" : " \(tab) ").terminalSafe
            canvas.text(label, row: 0, column: column, style: tab == selected ? palette.selectedTab : "")
            column += label.count + 2
        }
    }

    private func drawBreadcrumb(_ canvas: inout Canvas, row: Int) {
        guard let change else { return }
        var text = change.state.pathText.terminalSafe
        let width = canvas.columns - 2
        if text.count > width { text = "…" + String(text.suffix(max(width - 1, 0))) }
        canvas.text(text, row: row, column: 1, style: "")
    }

    private func drawStatus(_ canvas: inout Canvas) {
        let row = canvas.rows - 1
        canvas.fill(row: row, column: 0, height: 1, width: canvas.columns, style: palette.status)
        var text = " q quits"
        if let change {
            text = " rev \(change.revision) | \(change.cause) | depth \(change.state.path.count)"
                + (isGone ? " | navd gone" : note.map { " | \($0)" } ?? "") + " | q quits"
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
        let ids = Set(stack.map(\.id))
        let started = flows.filter { ids.contains($0.firstScreen) }.map(\.flow)
        if !started.isEmpty {
            let label = ("flow " + started.joined(separator: ", ")).terminalSafe
            canvas.text(label, row: rect.row, column: max(inner.column + inner.width - label.count, inner.column),
                        style: style)
        }
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
