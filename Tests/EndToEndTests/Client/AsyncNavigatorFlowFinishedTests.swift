import Foundation
@testable import NavdClient
import TestSupport
import Testing

/// AsyncNavigator's coordination calls, and its update sequence carrying navd's FlowFinished after the state of
/// the change that ended the flow.
@Suite("AsyncNavigator reports finished flows", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct AsyncNavigatorFlowFinishedTests {
    @Test("a flow finished, then one abandoned, each after its change's state; send, resolve, facts awaited")
    func flowFinished() async throws {
        let fixture = try NavdOnPrivateBus()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        guard case .state? = try await updates.next() else { Issue.record("no first state"); return }
        let started = try await navigator.send(.start("auth"))
        #expect(try await navigator.send(.getFlows).map(\.flow) == ["auth"])
        #expect(try await navigator.send(.getEvents()).map(\.event).prefix(3) == ["forgot-password", "succeeded", "cancel"])
        _ = try await navigator.send(.finish("cancelled"))
        _ = try await navigator.send(.start("auth"))
        _ = try await navigator.send(.dismiss)
        var seen: [String] = []
        var ends: [FlowFinished] = []
        while seen.count < 6, let update = try await updates.next() {
            switch update {
            case .state(let change): seen.append(change.cause)
            case .flowFinished(let finished): seen.append("flow-finished"); ends.append(finished)
            case .navdGone: seen.append("gone")
            }
        }
        #expect(seen == ["start", "finish", "flow-finished", "start", "dismiss", "flow-finished"])
        #expect(ends.first == FlowFinished(revision: 3, end: FlowEnd(id: started.id, flow: "auth", output: "cancelled")))
        #expect(ends.last?.isAbandoned == true)
        #expect(ends.last?.revision == 5)

        let resolved = try await navigator.send(.resolve(event: "next"))
        #expect(resolved.outcome == .applied && resolved.path.map(\.route) == ["red", "orange"])
        #expect(try await navigator.send(.send("next")) == EventOutcome(revision: 6, outcome: .applied))
        #expect(try await navigator.send(.setFacts(["signed-in": .bool(true)])) == 7)
        #expect(try await navigator.send(.facts) == ["signed-in": .bool(true)])
        await #expect(throws: NavigatorError.self) { try await navigator.send(.send("no-such-event")) }
    }
}
