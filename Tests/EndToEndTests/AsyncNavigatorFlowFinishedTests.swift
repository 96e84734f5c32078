import Foundation
import NavdClient
import TestSupport
import Testing

/// AsyncNavigator's update sequence carries navd's FlowFinished after the state of the change that ended the flow.
@Suite("AsyncNavigator reports finished flows", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct AsyncNavigatorFlowFinishedTests {
    @Test("a flow finished, then one abandoned: each after its change's state")
    func flowFinished() async throws {
        let fixture = try NavdOnPrivateBus()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        guard case .state? = try await updates.next() else { Issue.record("no first state"); return }
        let client = try fixture.client()
        let started = try client.start("auth")
        _ = try client.finish("cancelled")
        _ = try client.start("auth")
        _ = try client.dismiss()
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
    }
}
