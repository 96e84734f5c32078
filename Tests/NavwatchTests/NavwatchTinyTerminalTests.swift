@testable import NavdClient
import Testing
@testable import NavwatchCommandLine

/// navwatch's full-screen view on a terminal of one or two rows built an empty (inverted) row range when
/// filling the card and the "navd gone" banner, and trapped. The view now draws what fits.
@Suite("navwatch's terminal view on a tiny terminal", .timeLimit(.minutes(1)))
struct NavwatchTinyTerminalTests {
    let change = StateChange(cause: "push", state: VisibleState(revision: 2, tab: "rainbow", path: [
        Entry(id: "1", route: "red", presentation: .root),
        Entry(id: "2", route: "orange", presentation: .push),
        Entry(id: "3", route: "modal", presentation: .sheet),
    ]))

    func text(_ canvas: Canvas, row: Int) -> String { String(canvas.cells[row].map(\.character)) }

    @Test("a rectangle off the grid or of no size fills nothing")
    func fillOutsideTheGrid() {
        var canvas = Canvas(rows: 1, columns: 10)
        canvas.fill(row: 2, column: 0, height: 3, width: 10, style: "x")
        canvas.fill(row: 0, column: 12, height: 1, width: 3, style: "x")
        canvas.fill(row: 0, column: 0, height: -4, width: -4, style: "x")
        #expect(canvas.cells.allSatisfy { $0.allSatisfy { $0 == Canvas.Cell() } })
        canvas.fill(row: -1, column: 8, height: 3, width: 5, style: "x")
        #expect(canvas.cells[0].map(\.style) == Array(repeating: "", count: 8) + ["x", "x"])
    }

    @Test("one row shows the status line; two rows add the breadcrumb")
    func oneAndTwoRows() {
        var view = TerminalView(palette: Palette(enabled: true), unicode: false)
        view.change = change
        view.isGone = true
        let one = view.canvas(rows: 1, columns: 60)
        #expect(text(one, row: 0).hasPrefix(" rev 2 | push | depth 3 | navd gone"))
        let two = view.canvas(rows: 2, columns: 60)
        #expect(text(two, row: 0).hasPrefix(" red > orange > [sheet] modal"))
        #expect(text(two, row: 1).hasPrefix(" rev 2 | push"))
    }

    @Test("every size from 1×1 to 12×30 draws, with and without a state, tree or navd")
    func everySmallSize() {
        let tree = NavigationTree(revision: 2, tab: "rainbow", nodes: [
            Node(id: "t", parentID: "", kind: .tab, name: "rainbow"),
            Node(id: "1", parentID: "t", kind: .root, name: "red"),
        ])
        for rows in 1...12 {
            for columns in 1...30 {
                for variant in 0..<4 {
                    var view = TerminalView(palette: Palette(enabled: variant % 2 == 0), unicode: true)
                    view.change = variant == 3 ? nil : change
                    view.tree = variant == 2 ? tree : nil
                    view.isGone = variant >= 1
                    let canvas = view.canvas(rows: rows, columns: columns)
                    #expect(canvas.cells.count == rows && canvas.cells.allSatisfy { $0.count == columns })
                }
            }
        }
    }
}
