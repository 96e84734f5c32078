import ClientCommandLine
@testable import NavdClient
import Testing

@Suite("Human formatting")
struct FormattingTests {
    let state = VisibleState(revision: 42, tab: "rainbow", path: [
        Entry(id: "1", route: "red", presentation: .root),
        Entry(id: "2", route: "orange", presentation: .push),
        Entry(id: "3", route: "modal", presentation: .sheet),
    ])

    @Test("a line is revision, cause, tab and path", .timeLimit(.minutes(1)))
    func line() {
        #expect(state.line(cause: "present") == "42 present rainbow: red > orange > [sheet] modal")
        let untabbed = VisibleState(revision: 3, tab: "", path: [Entry(id: "1", route: "home", presentation: .root)])
        #expect(untabbed.line(cause: "pop") == "3 pop home")
    }

    @Test("templates fill every field and keep unknown ones", .timeLimit(.minutes(1)))
    func template() {
        #expect(state.format("{revision}|{cause}|{tab}|{top}|{id}|{depth}|{path}|{nope}|{{x}}", cause: "push")
            == "42|push|rainbow|modal|3|3|red > orange > [sheet] modal|{nope}|{x}")
    }

    @Test("the tree draws tabs, stacks and layers and marks the top", .timeLimit(.minutes(1)))
    func tree() {
        let tree = NavigationTree(revision: 7, tab: "profile", nodes: [
            Node(id: "t1", parentID: "", kind: .tab, name: "rainbow"),
            Node(id: "s1", parentID: "t1", kind: .root, name: "red"),
            Node(id: "s2", parentID: "s1", kind: .push, name: "orange"),
            Node(id: "t2", parentID: "", kind: .tab, name: "profile"),
            Node(id: "s3", parentID: "t2", kind: .root, name: "profile"),
            Node(id: "s4", parentID: "s3", kind: .cover, name: "login"),
            Node(id: "s5", parentID: "s4", kind: .push, name: "forgot-password", params: ["email": .string("a@b")]),
        ])
        #expect(tree.topID == "s5")
        #expect(tree.text() == [
            "  rainbow",
            "    red  (s1)",
            "    orange  (s2)",
            "* profile",
            "    profile  (s3)",
            "      [cover] login  (s4)",
            "      forgot-password email=a@b  (s5)  <- top",
        ])
    }
}
