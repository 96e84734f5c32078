import ClientCommandLine
@testable import NavdClient
import Testing
@testable import NavwatchCommandLine

/// navwatch's terminal view draws at most 1,000 × 1,000 cells whatever size the terminal reports, draws any
/// tree navd can hold, and shows text from the bus escaped: no cell holds a control character.
@Suite("navwatch's terminal view is bounded and inert", .timeLimit(.minutes(1)))
struct TerminalViewSafetyTests {
    let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}"

    func view() -> TerminalView { TerminalView(palette: Palette(enabled: true), unicode: true) }

    @Test("a huge reported size draws at most 1,000 rows and 1,000 columns")
    func canvasCap() {
        let tall = view().canvas(rows: 100_000, columns: 3)
        #expect(tall.rows == 1_000 && tall.cells.count == 1_000)
        let wide = view().canvas(rows: 3, columns: 100_000)
        #expect(wide.columns == 1_000 && wide.cells.allSatisfy { $0.count == 1_000 })
        #expect(Canvas(rows: 65_535, columns: 65_535).cells.count == 1_000)
    }

    @Test("text from the bus is drawn escaped: no cell holds a control, the rendering only ours")
    func escapedCells() {
        var view = view()
        let path = [
            Entry(id: "#1", route: "news-list", presentation: .root),
            Entry(id: "#2", route: "call-error", presentation: .push, params: ["message": .string(hostile)]),
        ]
        view.change = StateChange(cause: "push\u{9B}2J", state: VisibleState(revision: 3, tab: "news\u{1B}", path: path))
        view.tabs = ["news\u{1B}"]
        view.keys = EventKeys(["retry\u{07}"])
        view.note = hostile
        for tree in [nil, NavigationTree(revision: 3, tab: "news", nodes: [
            Node(id: "#1", parentID: "", kind: .root, name: "news-list"),
            Node(id: "#2", parentID: "#1", kind: .push, name: "call-error", params: ["message": .string(hostile)]),
        ])] {
            view.tree = tree
            let canvas = view.canvas(rows: 30, columns: 120)
            let characters = canvas.cells.flatMap { $0.map(\.character) }
            #expect(!characters.contains { $0.unicodeScalars.contains { $0.isTerminalControl } })
            #expect(canvas.cells.map { String($0.map(\.character)) }.joined().contains(#"\e[2J\e]0;pwned\x07"#))
            let rendered = canvas.rendered()
            #expect(!rendered.contains("\u{07}") && !rendered.contains("\u{9B}") && !rendered.contains("\u{1B}]"))
            #expect(!rendered.contains("\u{1B}[2J"))
        }
    }

    @Test("a tree of 100,000 screens is drawn")
    func hugeTree() {
        var nodes = [Node(id: "#1", parentID: "", kind: .root, name: "red")]
        for number in 2...100_000 {
            nodes.append(Node(id: "#\(number)", parentID: "#\(number - 1)", kind: .push, name: "orange"))
        }
        var view = view()
        view.tree = NavigationTree(revision: 2, tab: "", nodes: nodes)
        view.change = StateChange(cause: "setstack", state: VisibleState(revision: 2, tab: "", path: nodes.map {
            Entry(id: $0.id, route: $0.name, presentation: $0.kind == .root ? .root : .push)
        }))
        let canvas = view.canvas(rows: 40, columns: 100)
        #expect(String(canvas.cells[3].map(\.character)).contains("red  (#1)"))
        view.tree = nil
        let cards = view.canvas(rows: 40, columns: 100)
        #expect(cards.cells.map { String($0.map(\.character)) }.joined().contains("100000 in stack"))
    }
}
