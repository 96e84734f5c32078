import Testing
@testable import Navigation
import RouteFiles

/// A measurement, printed, not asserted: a push/pop must cost the same with 10,000 screens elsewhere in the tree.
@Suite(.timeLimit(.minutes(2)))
struct PerformanceMeasurementTests {
    /// `Tests/Fixtures/routes/measure.yaml`: tabs `small` and `big` rooted at `home`, a route `item(n)`, and limits
    /// raised to 20,000 screens.
    static func graph() throws -> RouteGraph { try fixtureGraph("measure") }

    /// Nanoseconds per push+pop pair on `coordinator`, over `rounds` pairs.
    static func measure(_ coordinator: inout Coordinator, rounds: Int) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for round in 0..<rounds {
            _ = try? coordinator.perform(.push(route: "item", params: ["n": .int(Int64(round))]), at: Int64(round))
            _ = try? coordinator.perform(.pop, at: Int64(round))
        }
        let elapsed = clock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        return nanoseconds / Double(rounds)
    }

    @Test func pushPopCostDoesNotGrowWithTheRestOfTheTree() throws {
        let graph = try Self.graph()
        var empty = Coordinator(graph: graph)
        var full = Coordinator(graph: graph)
        _ = try full.perform(.selectTab("big"), at: 0)
        let screens = [ScreenRequest(route: "home")] + (0..<9_999).map { ScreenRequest(route: "item", params: ["n": .int(Int64($0))]) }
        _ = try full.perform(.setStack(screens), at: 0)
        _ = try full.perform(.selectTab("small"), at: 0)
        #expect(full.nodes.count == 10_003)
        _ = Self.measure(&empty, rounds: 500)  // warm up
        _ = Self.measure(&full, rounds: 500)
        let emptyCost = Self.measure(&empty, rounds: 5_000)
        let fullCost = Self.measure(&full, rounds: 5_000)
        print("push+pop: \(Int(emptyCost)) ns with an empty tree, \(Int(fullCost)) ns with 10,000 screens in another tab (ratio \((fullCost / emptyCost * 100).rounded() / 100))")
        #expect(full.revision > 4 && empty.revision > 1)
    }
}
