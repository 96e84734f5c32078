import Testing
import Navigation
import RouteFiles

/// Near-1 MiB route files shaped so that each of many items refers to something large: checking
/// them must stay linear in the file. Before, a `finish` outside a flow looked through every flow
/// (15,000 flows × 18,000 such actions took 35 s in a release build), duplicate tabs were found by
/// a scan of the tabs before, a missing required param by a scan of every declared param, and a
/// link by a scan of every declared link pattern (2,000 states × 2,000 patterns: 7.6 s). The
/// time each load takes is printed, not asserted; the suite's time limit catches a return to
/// quadratic work.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileWorstCaseTests {
    /// `head`, then `count` of `first`, then `middle`, then `second` until the text nears 1 MiB.
    static func file(_ head: String, _ count: Int, _ first: (Int) -> String, _ middle: String, _ second: (Int) -> String) -> String {
        var text = head
        for index in 0..<count { text += first(index) }
        text += middle
        var index = 0
        while text.utf8.count < RouteFileSource.maximumBytes - 200 {
            text += second(index)
            index += 1
        }
        return text
    }

    static func load(_ name: String, _ yaml: String) throws -> RouteGraph {
        let clock = ContinuousClock()
        let start = clock.now
        let graph = try RouteGraph.load(yaml: yaml, file: name)
        print("(debug build) \(name): \(yaml.utf8.count) bytes loaded in \(clock.now - start)")
        return graph
    }

    @Test func finishOutsideAFlowNamingTheLastFlowsOutput() throws {
        let yaml = Self.file(
            "root: home\nroutes:\n  home: {}\nflows:\n", 15_000, { "  f\($0): { start: home, outputs: { o\($0): {} } }\n" },
            "on:\n", { "  e\($0): { finish: o14999 }\n" })
        let graph = try Self.load("finish.yaml", yaml)
        #expect(graph.flows.count == 15_000)
        #expect(graph.on.byEvent["e0"] == .actions([.finish(output: "o14999", params: [:])]))
        // The same in a route's `on:`.
        let inRoute = Self.file(
            "root: home\nflows:\n", 15_000, { "  f\($0): { start: home, outputs: { o\($0): {} } }\n" },
            "routes:\n  home: {}\n  item:\n    on:\n", { "      e\($0): { finish: o14999 }\n" })
        let routeGraph = try Self.load("finish-in-route.yaml", inRoute)
        #expect(routeGraph.routes["item"]?.on.byEvent["e1"] == .actions([.finish(output: "o14999", params: [:])]))
    }

    @Test func actionsAndFlowsOnARouteWithManyOptionalParams() throws {
        let params = "root: home\nroutes:\n  home: {}\n  item:\n    params: {"
        let pushes = try Self.load("push.yaml", Self.file(params, 30_000, { " p\($0): int," }, " z: int }\non:\n", { "  e\($0): { push: item }\n" }))
        #expect(pushes.routes["item"]?.paramOrder.count == 30_001)
        let flows = try Self.load("flows.yaml", Self.file(params, 30_000, { " p\($0): int," }, " z: int }\nflows:\n", { "  f\($0): { start: item }\n" }))
        #expect(flows.flows.count > 15_000)
    }

    @Test func manyTabsAndLinksThatNameThem() throws {
        let yaml = Self.file(
            "routes:\n  home: {}\n", 12_000, { "  r\($0): { link: /t\(11_999 - $0)/r\($0) }\n" },
            "tabs:\n", { "  - { name: t\($0), root: home }\n" })
        let graph = try Self.load("tabs.yaml", yaml)
        #expect(graph.tabs.count > 12_000)
        #expect(graph.routes["r0"]?.linkTab == "t11999")
        let explicit = Self.file(
            "routes:\n  home: {}\n", 12_000, { "  r\($0): { link: /x/r\($0), tab: t\($0) }\n" },
            "tabs:\n", { "  - { name: t\($0), root: home }\n" })
        #expect(try Self.load("tab-keys.yaml", explicit).routes["r7"]?.linkTab == "t7")
    }

    /// 2,000 routes with the link patterns `/p0/{id}` … `/p1999/{id}`, then `tail`.
    static func linkPatterns(_ tail: String) -> String {
        var text = "root: home\nroutes:\n  home: {}\n"
        for index in 0..<2_000 { text += "  r\(index):\n    params: { id: int }\n    link: /p\(index)/{id}\n" }
        return text + tail
    }

    @Test func statesWhoseLinksMatchOnlyTheLastPattern() throws {
        var states = "states:\n"
        for index in 0..<2_000 { states += "  s\(index): /p1999/\(index)\n" }
        let graph = try Self.load("link-states.yaml", Self.linkPatterns(states))
        #expect(graph.states.count == 2_000)
        #expect(graph.states["s7"] == "/p1999/7")
    }

    @Test func openActionsWhoseLinksMatchOnlyTheLastPattern() throws {
        var actions = "on:\n"
        for index in 0..<2_000 { actions += "  e\(index): { open: /p1999/\(index) }\n" }
        let graph = try Self.load("link-opens.yaml", Self.linkPatterns(actions))
        #expect(graph.on.byEvent["e7"] == .actions([.open("/p1999/7")]))
    }

    @Test func linksInAnAppWithManyTabs() throws {
        // Each link's first segment names no tab, and its pattern's tab is the last: neither may be a scan of the tabs.
        var text = "tabs:\n"
        for index in 0..<2_000 { text += "  - { name: t\(index), root: home }\n" }
        text += "routes:\n  home: {}\n"
        for index in 0..<2_000 { text += "  r\(index):\n    params: { id: int }\n    link: /p\(index)/{id}\n    tab: t1999\n" }
        text += "states:\n"
        for index in 0..<2_000 { text += "  s\(index): /p1999/\(index)\n" }
        let graph = try Self.load("link-tabs.yaml", text)
        #expect(graph.routes["r1999"]?.linkTab == "t1999")
        var coordinator = Coordinator(graph: graph)
        _ = try coordinator.perform(.open("s5"), at: 0)
        #expect(coordinator.selectedTab == "t1999")
        #expect(coordinator.path.last?.params == ["id": .int(5)])
    }
}
