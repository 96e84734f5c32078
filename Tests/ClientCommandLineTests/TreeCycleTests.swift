import ClientCommandLine
@testable import NavdClient
import Testing

/// A GetTree reply whose parent ids form a cycle (possible only when an id repeats, or when no root leads
/// to the nodes) made `topID` and `text()` follow the cycle forever. Both now stop at a node already
/// passed and say what is wrong.
@Suite("a tree whose parent ids form a cycle", .timeLimit(.minutes(1)))
struct TreeCycleTests {
    @Test("a repeated id that leads back up is drawn once more, marked, and has no top")
    func repeatedIdCycle() {
        let tree = NavigationTree(revision: 3, tab: "", nodes: [
            Node(id: "r", parentID: "", kind: .root, name: "red"),
            Node(id: "a", parentID: "r", kind: .push, name: "orange"),
            Node(id: "r", parentID: "a", kind: .push, name: "again"),
        ])
        #expect(tree.topID == nil)
        #expect(tree.text() == [
            "red  (r)",
            "orange  (a)",
            "! again  (r) repeats an id (parent ids form a cycle)",
        ])
    }

    @Test("nodes no root leads to are listed, not dropped")
    func unrootedCycle() {
        let tree = NavigationTree(revision: 3, tab: "", nodes: [
            Node(id: "r", parentID: "", kind: .root, name: "red"),
            Node(id: "x", parentID: "y", kind: .push, name: "blue"),
            Node(id: "y", parentID: "x", kind: .push, name: "green"),
        ])
        #expect(tree.topID == "r")
        #expect(tree.text() == [
            "red  (r)  <- top",
            "! not under any root (parent ids form a cycle):",
            "  blue  (x) under y",
            "  green  (y) under x",
        ])
    }
}
