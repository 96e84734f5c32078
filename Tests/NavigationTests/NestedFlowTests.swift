import Testing
@testable import Navigation
import RouteFiles

/// Flows in flows on a route file of our own (`Tests/Fixtures/routes/shop.yaml`) with nested flows, outputs with
/// params, every reference kind and every scope.
@Suite(.timeLimit(.minutes(1)))
struct NestedFlowTests {
    @Test func nestedFlowsFinishWithOutputsThroughEveryReference() throws {
        var shop = try fixtureCoordinator("shop")
        shop.must(send("buy", ["order": .int(42)]))
        #expect(shop.path == [entry("#1", "home", .root), entry("#2", "cart", .sheet, ["order": .int(42)])])
        shop.must(send("next"))
        #expect(shop.flows == [
            FlowInfo(id: "#3", flow: "checkout", firstScreen: "#2", params: ["order": .int(42)]),
            FlowInfo(id: "#5", flow: "address", firstScreen: "#4", params: [:]),
        ])
        #expect(try shop.events(source: "") == [
            EventInfo(event: "pick", scope: "route"), EventInfo(event: "back-out", scope: "flow:address"),
            EventInfo(event: "cancel", scope: "flow:checkout"),
        ])  // `help` is `none` in the address flow, which hides the app's handler
        #expect(shop.must(send("help"))?.outcome == .ignored)
        let chosen = shop.must(send("pick", ["city": .string("Oslo")]))
        #expect(chosen?.endedFlows == [FlowEnd(id: "#5", flow: "address", output: "chosen", params: ["city": .string("Oslo")])])
        #expect(chosen?.outcome == .finished)
        #expect(shop.routes == ["home", "cart", "payment"])
        #expect(shop.path.last?.params == ["city": .string("Oslo"), "order": .int(42)])
        let paid = shop.must(send("pay"))
        #expect(paid?.endedFlows == [FlowEnd(id: "#3", flow: "checkout", output: "paid", params: ["receipt": .string("Oslo")])])
        #expect(shop.path == [entry("#1", "home", .root), entry("#7", "receipt", .push, ["text": .string("Oslo")])])
        #expect(shop.flows.isEmpty)
        shop.must(send("help"))
        #expect(shop.routes == ["home", "receipt", "help"])
    }

    @Test func finishActsOnTheInnermostFlowEnclosingTheSource() throws {
        var shop = try fixtureCoordinator("shop")
        shop.must(send("buy", ["order": .int(1)]))
        shop.must(send("next"))
        // checkout's `cancel` runs from inside address, whose outputs lack `abandoned`.
        #expect(shop.refuse(send("cancel"))?.name == "UnknownOutput")
        shop.must(send("back-out"))
        let cancel = shop.must(send("cancel"))
        #expect(cancel?.endedFlows == [FlowEnd(id: "#3", flow: "checkout", output: "abandoned")])
        #expect(shop.routes == ["home"])
    }

    @Test func closingTheOuterFlowAbandonsBothOuterFirst() throws {
        var shop = try fixtureCoordinator("shop")
        shop.must(send("buy", ["order": .int(1)]))
        shop.must(send("next"))
        let dismiss = shop.must(.dismiss)
        #expect(dismiss?.endedFlows == [FlowEnd(id: "#3", flow: "checkout", output: ""), FlowEnd(id: "#5", flow: "address", output: "")])
        #expect(shop.flows.isEmpty && shop.routes == ["home"])
    }

    @Test func finishedFlowsAreAnnouncedBeforeAbandonedOnes() throws {
        var shop = try fixtureCoordinator("shop")
        shop.must(send("buy", ["order": .int(1)]))
        shop.must(send("next"))
        // From the cart, below the address flow: checkout is the innermost flow enclosing the source.
        let cancel = shop.must(.send(source: "#2", event: "cancel", params: [:], expectedRevision: 0))
        #expect(cancel?.endedFlows == [FlowEnd(id: "#3", flow: "checkout", output: "abandoned"), FlowEnd(id: "#5", flow: "address", output: "")])
        #expect(shop.routes == ["home"])
    }

    @Test func aFinishedFlowLeavesTheTreeBelowItsFirstScreen() throws {
        var shop = try fixtureCoordinator("shop")
        shop.must(push("help"))
        let before = shop.path
        shop.must(.start(flow: "address", params: [:]))
        shop.must(push("help"))
        shop.must(.present(route: "cart", params: [:], style: "sheet"))
        shop.must(.finish(output: "chosen", params: ["city": .string("x")]))  // the innermost flow of the top screen
        #expect(shop.path == before)
    }

    @Test func missingReferencesAndParamsAreInvalidParams() throws {
        var shop = try fixtureCoordinator("shop")
        #expect(shop.refuse(send("buy"))?.message.contains("reads $event.order") == true)
        #expect(shop.refuse(.start(flow: "checkout", params: [:])) == .invalidParams("flow 'checkout' needs param 'order' (int)"))
        shop.must(.start(flow: "address", params: [:]))
        #expect(shop.refuse(.finish(output: "chosen", params: [:])) == .invalidParams("output 'chosen' of flow 'address' needs param 'city' (string)"))
    }
}
