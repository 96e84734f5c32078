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
        #expect(coordinator.nodes == [
            Node(id: "#1", parentID: "", kind: .tab, name: "rainbow"),
            Node(id: "#2", parentID: "#1", kind: .root, name: "red"),
            Node(id: "#3", parentID: "", kind: .tab, name: "news"),
            Node(id: "#4", parentID: "#3", kind: .root, name: "news-list"),
            Node(id: "#5", parentID: "", kind: .tab, name: "profile"),
            Node(id: "#6", parentID: "#5", kind: .root, name: "profile"),
        ])
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
        #expect(coordinator.path == [
            entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "modal", .sheet), entry("#9", "yellow"),
            entry("#10", "login", .cover),
        ])
        #expect(Array(coordinator.nodes.prefix(6)) == [
            Node(id: "#1", parentID: "", kind: .tab, name: "rainbow"),
            Node(id: "#2", parentID: "#1", kind: .root, name: "red"),
            Node(id: "#7", parentID: "#2", kind: .push, name: "orange"),
            Node(id: "#8", parentID: "#7", kind: .sheet, name: "modal"),
            Node(id: "#9", parentID: "#8", kind: .push, name: "yellow"),
            Node(id: "#10", parentID: "#9", kind: .cover, name: "login"),
        ])
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
