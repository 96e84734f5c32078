import Testing
@testable import Navigation
import RouteFiles

/// Measurements, printed, not asserted: resolving an event must cost about a Push, however large the graph.
@Suite(.timeLimit(.minutes(2)))
struct CoordinationPerformanceTests {
    /// 1,000 routes (each `next` pushes the following one), 100 flows each starting the next inside it.
    static func bigGraph() throws -> RouteGraph {
        var yaml = "root: r0\nlimits: { max-path-depth: 500, max-stack-depth: 500 }\nflows:\n"
        for flow in 0..<100 {
            yaml += "  f\(flow): { start: r\(flow * 10 + 1), outputs: { done: {} }, on: { deeper: { start: f\(min(flow + 1, 99)) } } }\n"
        }
        yaml += "on:\n  anywhere: none\nroutes:\n"
        for route in 0..<1000 {
            yaml += "  r\(route): { on: { next: { push: r\((route + 1) % 1000) } } }\n"
        }
        return try RouteGraph.load(yaml: yaml, file: "big.yaml")
    }

    /// Nanoseconds per (op, pop) pair.
    static func measure(_ coordinator: inout Coordinator, _ op: Navigation.Operation, rounds: Int, pop: Bool = true) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for round in 0..<rounds {
            _ = try? coordinator.perform(op, at: Int64(round))
            if pop { _ = try? coordinator.perform(.pop, at: Int64(round)) }
        }
        let elapsed = clock.now - start
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(rounds)
    }

    @Test func sendCostsAboutAPushOnTheDemoAndOnA1000RouteGraph() throws {
        let graph = try Self.bigGraph()
        var shallow = Coordinator(graph: graph)
        let shallowPush = Self.measure(&shallow, push("r1"), rounds: 3000)
        let shallowSend = Self.measure(&shallow, send("next"), rounds: 3000)
        var deep = Coordinator(graph: graph)
        _ = try deep.perform(.setStack((0..<62).map { ScreenRequest(route: "r\($0)") }), at: 0)
        let deepPush = Self.measure(&deep, push("r1"), rounds: 3000)
        var big = Coordinator(graph: graph)
        _ = try big.perform(.start(flow: "f0", params: [:]), at: 0)
        for _ in 0..<60 { _ = try big.perform(send("deeper"), at: 0) }  // 61 nested flow instances
        #expect(big.flows.count == 61)
        #expect(try big.events(source: "").map(\.event) == ["next", "deeper"])
        let top = big.top.route
        let next = "r\((Int(top.dropFirst())! + 1) % 1000)"
        var demo = Coordinator(graph: .demo)
        for coordinator in [demo, big] { var warm = coordinator; _ = Self.measure(&warm, send("next"), rounds: 300) }
        let demoPush = Self.measure(&demo, push("orange"), rounds: 3000)
        let demoSend = Self.measure(&demo, send("next"), rounds: 3000)
        let bigPush = Self.measure(&big, push(next), rounds: 3000)
        let bigSend = Self.measure(&big, send("next"), rounds: 3000)
        let bigUnhandledScan = Self.measure(&big, send("anywhere"), rounds: 3000, pop: false)  // walks 61 flows, then the app scope
        print("""
            (debug build) demo: push+pop \(Int(demoPush)) ns, send+pop \(Int(demoSend)) ns (ratio \((demoSend / demoPush * 100).rounded() / 100)); \
            1,000 routes at the root: push+pop \(Int(shallowPush)) ns, send+pop \(Int(shallowSend)) ns; \
            62 screens deep without flows: push+pop \(Int(deepPush)) ns; \
            1,000 routes, 100 flows, 61 nested: push+pop \(Int(bigPush)) ns, send+pop \(Int(bigSend)) ns \
            (ratio \((bigSend / bigPush * 100).rounded() / 100)), an app-scope event through 61 flows \(Int(bigUnhandledScan)) ns
            """)
        #expect(big.top.route == top && demo.routes == ["red"])
    }
}
