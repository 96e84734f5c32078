import Foundation
import Testing
@testable import Navigation
import RouteFiles
import TestFixtures

@Suite(.timeLimit(.minutes(1)))
struct RouteFileTests {
    @Test func smallGraphLoads() throws {
        let graph = try smallGraph()
        #expect(graph.tabs.isEmpty && graph.rootRoute == "home")
        #expect(graph.routeOrder == ["home", "list", "detail", "editor", "alert"])
        #expect(graph.routes["detail"] == RouteSpec(
            name: "detail", title: "Detail", params: ["id": .int, "zoom": .double, "pinned": .bool],
            paramOrder: ["id", "zoom", "pinned"], required: ["id"], presentations: [.push], link: "/items/{id}"))
        #expect(graph.routes["list"]?.params == ["filter": .string, "page": .int])
        #expect(graph.routes["editor"]?.presentations == [.sheet])
        #expect(graph.states == ["start": "/", "first-item": "/items/1"])
        #expect(graph.limits == Limits([.maxPathDepth: 6, .maxStackDepth: 5, .maxParamsBytes: 200, .maxApplyOps: 4, .maxStringBytes: 100, .maxUndo: 3, .maxHistory: 5]))
        let coordinator = Coordinator(graph: graph)
        #expect(coordinator.nodes == [Node(id: "#1", parentID: "", kind: .root, name: "home")])
        #expect(coordinator.path == [Entry(id: "#1", route: "home", presentation: .root, params: [:])])
    }

    /// A parse that leaves its YAML tree behind (`ParseLeftovers`, freed after a reload is answered) gives the same
    /// graph, every handler in its place: a route's, a flow's, a tab's and the app's.
    @Test func aParseLeavingItsTreeBehindGivesTheSameGraph() throws {
        let yaml = """
            tabs:
              - { name: a, root: home, on: { tab-event: { push: page } } }
            on: { app-event: { tab: a } }
            flows:
              f: { start: page, outputs: { done: {} }, on: { flow-event: { finish: done } } }
            routes:
              home: { on: { go: { push: page }, idle: none } }
              page: { on: { back: pop } }

            """
        let leftovers = ParseLeftovers()
        let graph = try RouteGraph.load(yaml: yaml, file: "t.yaml", leavingBehind: leftovers)
        #expect(graph == (try RouteGraph.load(yaml: yaml, file: "t.yaml")))
        #expect(graph.routes["home"]?.on.order == ["go", "idle"])
        #expect(graph.routes["page"]?.on.order == ["back"])
        #expect(graph.flows["f"]?.on.order == ["flow-event"])
        #expect(graph.tabs.first?.on.order == ["tab-event"])
        #expect(graph.on.order == ["app-event"])
        leftovers.release()
        #expect(graph == (try RouteGraph.load(yaml: yaml, file: "t.yaml")), "the graph is its own once the tree is freed")
        #expect(try RouteGraph.load(yaml: RouteGraph.demoYAML, file: "<demo>", leavingBehind: leftovers) == RouteGraph.demo)
    }

    @Test func loadsFromAPath() throws {
        let path = Fixture.directory + "/routes/small.yaml"
        #expect(try RouteGraph.load(path: path) == smallGraph())
        #expect(throws: RouteFileError.self) { try RouteGraph.load(path: path + ".missing") }
        do {
            _ = try RouteGraph.load(path: path + ".missing")
        } catch {
            #expect(error.file == path + ".missing")
            #expect(error.problem.hasPrefix("cannot read the route file"))
        }
    }

    @Test func errorsNameFileKeyAndProblem() {
        let routes = "routes:\n  home: { title: Home }\n"
        #expect(loadError("root: home\ncolour: red\n" + routes)?.description == "routes.yaml:2: colour: unknown key 'colour'; known keys: tabs, selected-tab, root, routes, states, limits, facts, flows, guards, on, access")
        #expect(loadError("root: home\nroutes:\n  home:\n    params:\n      id: integer\n")?.description == "routes.yaml:5: routes.home.params.id: unknown type 'integer'; use string, int, double or bool")
        #expect(loadError("root: home\nroutes:\n  home:\n    titel: Home\n")?.description == "routes.yaml:4: routes.home.titel: unknown key 'titel'; known keys: title, params, presentations, link, tab, hints, requires, on")
        #expect(loadError("root: home\nroutes:\n  'ho#me': {}\n")?.problem == "'ho#me' is not a valid route name; use letters, digits, '-', '_' and '.' only")
        #expect(loadError("root: nope\n" + routes)?.description == "routes.yaml:1: root: no route 'nope' under `routes:`")
        #expect(loadError(routes)?.problem == "give either `tabs:` (a list of {name, root}) or `root: ROUTE` for a single stack")
        #expect(loadError("tabs:\n  - name: a\n" + routes)?.description == "routes.yaml:2: tabs[0]: tab 'a' needs `root: ROUTE`")
        #expect(loadError("tabs:\n  - { name: a, root: home }\n  - { name: a, root: home }\n" + routes)?.problem == "tab 'a' is declared twice")
        #expect(loadError("tabs:\n  - { name: a, root: home }\nselected-tab: b\n" + routes)?.keyPath == "selected-tab")
        #expect(loadError("root: home\nroutes:\n  home:\n    presentations: [popover]\n")?.problem == "unknown presentation 'popover'; use push, sheet or cover")
        #expect(loadError("root: home\nroutes:\n  home:\n    params: { id: { type: int, required: maybe } }\n")?.keyPath == "routes.home.params.id.required")
        #expect(loadError("root: home\nlimits:\n  max-undo: -1\n" + routes)?.description == "routes.yaml:3: limits.max-undo: must be at least 0, not -1")
        #expect(loadError("root: home\nlimits:\n  max-path-depth: lots\n" + routes)?.problem == "expected a whole number")
        #expect(loadError("root: home\n")?.keyPath == "routes")
        #expect(loadError("")?.problem.hasPrefix("the file is empty") == true)
        #expect(loadError("root: [unclosed\n")?.problem.hasPrefix("not valid YAML") == true)
        #expect(loadError("root: home\nroutes:\n  home: {}\n  home: {}\n")?.problem.hasPrefix("not valid YAML") == true)
    }

    @Test func yamlSyntaxErrorsNameTheirLineOnOneLine() {
        let unclosed = loadError("root: a\nroutes:\n  a: {title: x\n  b: 1\n")
        #expect(unclosed?.line == 4)
        #expect(unclosed?.description.hasPrefix("routes.yaml:4: not valid YAML: did not find expected ',' or '}'") == true)
        let duplicate = loadError("root: home\nroutes:\n  home: {}\n  home: {}\n")
        #expect(duplicate?.description == "routes.yaml:3: not valid YAML: the key 'home' appears twice in the mapping that starts here; keep one")
        for error in [unclosed, duplicate] { #expect(error?.description.contains("\n") == false) }
    }

    @Test func rootRoutesMayNotRequireParams() {
        let yaml = "tabs:\n  - { name: a, root: item }\nroutes:\n  item:\n    params: { id: { type: int, required: true } }\n"
        #expect(loadError(yaml)?.problem == "root route 'item' requires param 'id', but a tab's root screen is made without params")
        #expect(loadError(yaml)?.keyPath == "tabs[0].root")
    }

    @Test func linkPatternErrors() {
        let head = "tabs:\n  - { name: shop, root: home }\nroutes:\n  home: {}\n"
        #expect(loadError(head + "  item:\n    params: { id: int }\n    link: /shop/{sku}\n")?.description == "routes.yaml:7: routes.item.link: '{sku}' is not a declared param of 'item'")
        #expect(loadError(head + "  item:\n    params: { id: { type: int, required: true }, n: { type: int, required: true } }\n    link: /shop/{id}\n")?.problem == "required param 'n' has no {n} in the link, so the link could never open")
        #expect(loadError(head + "  item:\n    link: /elsewhere/x\n")?.problem == "cannot tell which tab '/elsewhere/x' opens in; add `tab: NAME` to the route")
        #expect(loadError(head + "  item:\n    link: shop//x\n")?.keyPath == "routes.item.link")
        #expect(loadError(head + "  item:\n    link: /shop//x\n")?.keyPath == "routes.item.link")
        #expect(loadError(head + "  item:\n    presentations: [sheet]\n    link: /shop/item\n")?.problem == "the link pushes 'item' onto its tab's stack, but its presentations lack push")
        #expect(loadError(head + "  item:\n    tab: shop\n")?.keyPath == "routes.item.tab")
        #expect(loadError(head + "  item:\n    link: /elsewhere/x\n    tab: nope\n")?.problem == "no tab 'nope'; tabs: shop")
        // An explicit tab makes any pattern usable.
        let graph = try? RouteGraph.load(yaml: head + "  item:\n    link: /elsewhere/x\n    tab: shop\n", file: "routes.yaml")
        #expect(graph?.routes["item"]?.linkTab == "shop")
    }

    @Test func statesMustResolve() {
        let yaml = "root: home\nroutes:\n  home: {}\nstates:\n  broken: /home/nope\n"
        #expect(loadError(yaml)?.description == "routes.yaml:5: states.broken: link '/home/nope' does not resolve: segment 'nope' of '/home/nope' names no route; routes: home")
    }

    @Test func hintsAndShorthands() throws {
        let yaml = "root: home\nroutes:\n  home:\n    hints: { color: '#ff0000', index: 3, label: '3' }\n  bare:\n"
        let graph = try RouteGraph.load(yaml: yaml, file: "routes.yaml")
        #expect(graph.routes["home"]?.hints == ["color": .string("#ff0000"), "index": .int(3), "label": .string("3")])
        #expect(graph.routes["bare"] == RouteSpec(name: "bare", title: "bare"))
    }
}
