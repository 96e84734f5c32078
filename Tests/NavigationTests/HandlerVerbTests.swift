import Testing
@testable import Navigation
import RouteFiles

/// Every verb of a handler acts as the method it names.
@Suite(.timeLimit(.minutes(1)))
struct HandlerVerbTests {
    static let yaml = """
        tabs:
          - { name: main, root: home, on: { to-side: { tab: side } } }
          - { name: side, root: side-home }
        facts:
          label: { type: string, default: "" }
        routes:
          home:
            on:
              stack: { set-stack: [home, { route: item, params: { n: 2 } }, { route: item, params: { n: $event.n } }] }
              replace-top: { replace: item, params: { n: 9 } }
              sheet: { present: note, style: sheet, params: { text: $$literal } }
              label-it: { set-facts: { label: $event.text } }
          side-home: {}
          item:
            params: { n: { type: int, required: true } }
            on:
              back-home: { pop-to: home }
              up: pop
              top: root
              again: back
              copy: { push: item, params: { n: $screen.n } }
              deep: { open: /main/item;n=5 }
          note:
            presentations: [sheet, cover]
            params: { text: string }
            on:
              close: dismiss
              close-all: dismiss-all
        """

    @Test func eachVerbActsAsItsMethod() throws {
        var app = Coordinator(graph: try RouteGraph.load(yaml: Self.yaml, file: "verbs.yaml"))
        app.must(send("stack", ["n": .int(3)]))
        #expect(app.path.map(\.params) == [[:], ["n": .int(2)], ["n": .int(3)]])
        app.must(send("copy"))
        #expect(app.path.last?.params == ["n": .int(3)] && app.depth == 4)
        app.must(send("up"))
        app.must(send("back-home"))
        #expect(app.routes == ["home"])
        app.must(send("replace-top"))
        #expect(app.path == [entry("#9", "item", .root, ["n": .int(9)])])
        app.must(send("top"))
        app.must(send("deep"))
        #expect(app.routes == ["home", "item"] && app.path.last?.params == ["n": .int(5)])
        app.must(send("again"))
        #expect(app.routes == ["home"])
        app.must(send("sheet"))
        #expect(app.path.last == entry("#12", "note", .sheet, ["text": .string("$literal")]))
        app.must(send("close"))
        app.must(send("sheet"))
        app.must(send("close-all"))
        #expect(app.routes == ["home"])
        app.must(send("label-it", ["text": .string("hello")]))
        #expect(app.facts == ["label": .string("hello")])
        app.must(send("to-side"))
        #expect(app.selectedTab == "side")
    }
}
