import ClientCommandLine
@testable import NavdClient
import Testing

/// A GetTree reply whose parent ids form a cycle (possible only when an id repeats, or when no root leads
/// to the nodes) made `topID` and `text()` follow the cycle forever. Both now stop at a node already
/// passed and say what is wrong.
@Suite("a tree whose parent ids form a cycle", .timeLimit(.minutes(1)))
struct TreeCycleTests {
    /// A tree with a cycle, the top it has and the lines it is drawn as.
    struct Cycle: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var nodes: [Node]
        var top: String?
        var text: [String]

        /// `nodes` as (id, parent id, kind, route).
        init(_ testDescription: String, nodes: [(String, String, NodeKind, String)], top: String?, text: [String]) {
            self.testDescription = testDescription
            self.nodes = nodes.map { Node(id: $0.0, parentID: $0.1, kind: $0.2, name: $0.3) }
            self.top = top
            self.text = text
        }
    }

    static let cycles = [
        Cycle(
            "a repeated id that leads back up is drawn once more, marked, and has no top",
            nodes: [("r", "", .root, "red"), ("a", "r", .push, "orange"), ("r", "a", .push, "again")],
            top: nil,
            text: ["red  (r)", "orange  (a)", "! again  (r) repeats an id (parent ids form a cycle)"]),
        Cycle(
            "nodes no root leads to are listed, not dropped",
            nodes: [("r", "", .root, "red"), ("x", "y", .push, "blue"), ("y", "x", .push, "green")],
            top: "r",
            text: ["red  (r)  <- top", "! not under any root (parent ids form a cycle):", "  blue  (x) under y", "  green  (y) under x"]),
    ]

    @Test("the top and the drawing stop at the cycle", arguments: cycles)
    func cycle(_ cycle: Cycle) {
        let tree = NavigationTree(revision: 3, tab: "", nodes: cycle.nodes)
        #expect(tree.topID == cycle.top)
        #expect(tree.text() == cycle.text)
    }
}
