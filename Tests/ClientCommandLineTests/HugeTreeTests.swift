import ClientCommandLine
@testable import NavdClient
import Testing

/// Any tree navd can hold is drawn: a stack of 100,000 screens (the drawing recursed once per screen and
/// overflowed the stack), layers nested deeper than anyone reads (indents stop growing), and a hostile
/// param shown escaped wherever the line is written.
@Suite("huge trees", .timeLimit(.minutes(1)))
struct HugeTreeTests {
    /// One root and `screens - 1` pushed screens above it, each the parent of the next.
    static func stack(_ screens: Int) -> NavigationTree {
        var nodes = [Node(id: "#1", parentID: "", kind: .root, name: "red")]
        nodes.reserveCapacity(screens)
        for number in 2...screens {
            nodes.append(Node(id: "#\(number)", parentID: "#\(number - 1)", kind: .push, name: "orange"))
        }
        return NavigationTree(revision: 2, tab: "", nodes: nodes)
    }

    @Test("a stack of 100,000 screens is 100,000 lines at one indent, the top marked")
    func hundredThousandScreens() {
        let tree = Self.stack(100_000)
        let lines = tree.text()
        #expect(lines.count == 100_000)
        #expect(lines.first == "red  (#1)")
        #expect(lines.last == "orange  (#100000)  <- top")
        #expect(tree.topID == "#100000")
        #expect(tree.json.encoded().count > 100_000)
    }

    @Test("layers nested past the indent limit are drawn with their level, not ever wider")
    func deepLayers() {
        var nodes = [Node(id: "r", parentID: "", kind: .root, name: "red")]
        for number in 1...1_000 {
            nodes.append(Node(id: "m\(number)", parentID: number == 1 ? "r" : "m\(number - 1)", kind: .sheet, name: "modal"))
        }
        let lines = NavigationTree(revision: 2, tab: "", nodes: nodes).text()
        #expect(lines.count == 1_001)
        #expect(lines[40] == String(repeating: "  ", count: 40) + "[sheet] modal  (m40)")
        #expect(lines[1_000] == String(repeating: "  ", count: 40) + "(1000) [sheet] modal  (m1000)  <- top")
        #expect(lines.allSatisfy { $0.count < 200 })
    }
}
