import NavdClient
import TestSupport
import Testing

/// `AsyncNavigator.apply` with every operation of the contract, as the client's typed ops.
@Suite("AsyncNavigator applies every operation", .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct AsyncNavigatorApplyTests {
    @Test func everyOperation() async throws {
        let fixture = try NavdOnPrivateBus()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        for (index, step) in ApplyEveryOperation.steps.enumerated() {
            let revision = try await navigator.send(.apply(step.ops))
            #expect(revision == UInt64(index + 2), "step \(index): one revision per batch")
            let state = try await navigator.send(.getState)
            #expect(state.tab == step.tab, "step \(index)")
            #expect(state.path.map(\.route) == step.path, "step \(index)")
        }
        #expect(try await navigator.send(.facts)["signed-in"] == .bool(true))
    }

    @Test func anOpOfTheWrongShapeIsRefusedBeforeSending() async throws {
        #expect(throws: BatchOperationError.missingArgument(operation: "send", argument: "event")) {
            try BatchOperation("send", ["source": .string("#2")])
        }
        #expect(throws: BatchOperationError.wrongKind(operation: "setfacts", argument: "facts")) {
            try BatchOperation("setfacts", ["facts": .string("signed-in")])
        }
    }
}
