import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct DemoGraphTests {
    @Test func demoGraphIsTheContractsGraph() {
        let graph = RouteGraph.demo
        #expect(graph.tabs.map(\.name) == ["rainbow", "news", "profile"])
        #expect(graph.tabs.map(\.rootRoute) == ["red", "news-list", "profile"])
        #expect(graph.rootRoute == nil)
        #expect(graph.selectedTabAtStart == "rainbow")
        #expect(graph.routeOrder == [
            "red", "orange", "yellow", "green", "teal", "blue", "purple", "news-list", "news-item", "profile",
            "settings", "login", "forgot-password", "modal", "call-progress", "call-success", "call-error", "account",
        ])
        for (index, color) in ["red", "orange", "yellow", "green", "teal", "blue", "purple"].enumerated() {
            let spec = graph.routes[color]!
            #expect(spec.hints == ["color": .string(color), "index": .int(Int64(index))])
            #expect(spec.presentations == [.push])
            #expect(spec.params.isEmpty)
        }
        #expect(graph.routes["news-item"] == RouteSpec(
            name: "news-item", title: "News item", params: ["id": .int], required: ["id"], presentations: [.push],
            link: "/news/{id}", linkTab: "news"))
        #expect(graph.routes["login"]!.presentations == [.cover])
        #expect(graph.routes["modal"]!.presentations == [.sheet, .cover])
        for name in ["news-list", "profile", "settings", "forgot-password"] {
            #expect(graph.routes[name]!.presentations == [.push])
        }
        #expect(graph.states == ["root": "/rainbow", "end": "/rainbow/purple"])
        #expect(graph.limits == Limits())
    }

    @Test func freshDemoTree() {
        let coordinator = demo()
        #expect(coordinator.revision == 1)
        #expect(coordinator.selectedTab == "rainbow")
        #expect(coordinator.tabs == ["rainbow", "news", "profile"])
        #expect(coordinator.path == [entry("#2", "red", .root)])
        #expect(coordinator.top == entry("#2", "red", .root))
        #expect(coordinator.nodes
            == tabNodes("#1", "rainbow", [entry("#2", "red", .root)])
            + tabNodes("#3", "news", [entry("#4", "news-list", .root)])
            + tabNodes("#5", "profile", [entry("#6", "profile", .root)]))
        #expect(!coordinator.canUndo && !coordinator.canRedo)
        #expect(coordinator.history(limit: 10).isEmpty)
        #expect(coordinator.namedStates == ["root": "/rainbow", "end": "/rainbow/purple"])
    }

    @Test func nodesOfLayersAndPushes() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(present("modal", "sheet"))  // #8
        coordinator.must(push("yellow"))  // #9
        coordinator.must(present("login", "cover"))  // #10
        let path = [
            entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "modal", .sheet), entry("#9", "yellow"),
            entry("#10", "login", .cover),
        ]
        #expect(coordinator.path == path)
        // Each screen is the child of the one below it, a layer's root of the screen it covers.
        #expect(Array(coordinator.nodes.prefix(6)) == tabNodes("#1", "rainbow", path))
        #expect(coordinator.nodes.count == 10)
    }

    @Test func idsNeverEqualRouteNames() {
        for name in RouteGraph.demo.routeOrder { #expect(!name.contains("#")) }
        #expect(!RouteGraph.isValidName("#7"))
    }

    @Test func demoYAMLLoadsToTheDemoGraph() throws {
        #expect(try RouteGraph.load(yaml: RouteGraph.demoYAML, file: "demo.yaml") == RouteGraph.demo)
    }
}
