import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// What a reload repairs, end to end on one app: params that no longer fit, a presentation no
/// longer allowed, a tab that is gone, a switch to a single stack, facts, flows, and undo after a
/// reload that changed nothing on the tree.
@Suite("navd reload repair", .timeLimit(.minutes(2)))
struct NavdReloadRepairTests {
    let shop = NavdWithApps.path("shop")

    /// The shop's revision before and after reloading `text`, with the last history entry's cause.
    func reload(_ navd: NavdWithApps, _ client: Connection, _ text: String) throws -> (before: UInt64, after: UInt64, cause: String) {
        let before = try client.revision(at: shop)
        try navd.write("shop", text)
        let after = try client.reload(at: shop)
        return (before, after, try client.history(at: shop, limit: 1).first?.cause ?? "")
    }

    @Test func aScreenWhoseParamsNoLongerFitGoesWithEverythingAboveIt() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(7))], at: shop)
        try client.push("reviews", at: shop)
        let edited = AppRouteFiles.shop.replacingOccurrences(of: "{ type: int, required: true }", with: "{ type: string, required: true }")
        let outcome = try reload(navd, client, edited)
        #expect(outcome.after == outcome.before + 1 && outcome.cause == "reconcile", "\(outcome)")
        #expect(try client.navigatorRoutes(at: shop) == ["catalog"])
    }

    @Test func aLayerWhosePresentationIsNoLongerAllowedGoes() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        _ = try client.navigator("Present", [.string("help"), .emptyParams, .string("sheet")], at: shop)
        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "help"])
        let outcome = try reload(navd, client, AppRouteFiles.shop.replacingOccurrences(of: "[sheet]", with: "[cover]"))
        #expect(outcome.after == outcome.before + 1 && outcome.cause == "reconcile", "\(outcome)")
        #expect(try client.navigatorRoutes(at: shop) == ["catalog"])
    }

    @Test func aTabThatIsGoneIsDroppedAndTheSelectionMovesToTheFirstTab() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        _ = try client.navigator("SelectTab", [.string("cart")], at: shop)
        let withoutCart = AppRouteFiles.shop.replacingOccurrences(of: "  - name: cart\n    root: basket\n", with: "")
        let outcome = try reload(navd, client, withoutCart)
        #expect(outcome.after == outcome.before + 1 && outcome.cause == "reconcile", "\(outcome)")
        #expect(try client.navigatorState(at: shop).tab == "browse")
        #expect(try client.property("Tabs", at: shop).arrayValues?.map { $0.stringValue ?? "" } == ["browse"])
    }

    @Test func switchingToASingleStackStartsAFreshTreeAndIdsKeepCounting() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(7))], at: shop)
        let oldIds = try client.navigatorState(at: shop).path.map(\.id)
        let untabbed = "root: basket\n" + AppRouteFiles.shop.replacingOccurrences(of: "tabs:\n  - name: browse\n    root: catalog\n  - name: cart\n    root: basket\n", with: "")
        let outcome = try reload(navd, client, untabbed)
        #expect(outcome.after == outcome.before + 1 && outcome.cause == "reconcile", "\(outcome)")
        let state = try client.navigatorState(at: shop)
        #expect(state.tab == "" && state.path.map(\.route) == ["basket"])
        let number: (String) -> Int = { Int($0.dropFirst()) ?? 0 }
        #expect(state.path.allSatisfy { id in oldIds.allSatisfy { number(id.id) > number($0) } }, "ids keep counting: \(oldIds) → \(state.path.map(\.id))")
    }

    @Test func factsAreDroppedOrTakeTheirDefaultsAsOneRevision() throws {
        let navd = try NavdWithApps(apps: ["shop": AppRouteFiles.shop + "facts:\n  member: { type: bool, default: false }\n"])
        let client = try navd.connect()
        _ = try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("member", .boolean(true))])], at: shop)
        let outcome = try reload(navd, client, AppRouteFiles.shop + "facts:\n  points: { type: int, default: 3 }\n")
        #expect(outcome.after == outcome.before + 1 && outcome.cause == "reconcile", "facts changed: \(outcome)")
        let facts = try client.property("Facts", at: shop).stringKeyedPairs ?? []
        #expect(facts.map(\.0) == ["points"] && facts.first?.1 == .int64(3), "member is dropped, points takes its default: \(facts)")
    }

    @Test func aFlowNoLongerDeclaredIsAbandoned() throws {
        let flow = "flows:\n  buy:\n    start: checkout\n    presentation: sheet\n    outputs:\n      done: {}\n"
        let withFlow = AppRouteFiles.shop.replacingOccurrences(of: "  checkout: { title: Checkout }", with: "  checkout: { title: Checkout, presentations: [push, sheet] }") + flow
        let navd = try NavdWithApps(apps: ["shop": withFlow])
        let client = try navd.connect()
        _ = try client.navigator(NavigatorMethod.start.name, [.string("buy"), .emptyParams], at: shop)
        #expect(try client.navigator(NavigatorMethod.getFlows.name, at: shop).first?.arrayValues?.count == 1)
        try navd.write("shop", withFlow.replacingOccurrences(of: flow, with: ""))
        try client.reload(at: shop)
        #expect(try client.navigator(NavigatorMethod.getFlows.name, at: shop).first?.arrayValues?.count == 0, "the flow is abandoned")
        #expect(client.navigatorFailure(NavigatorMethod.finish.name, [.string("done"), .emptyParams], at: shop)?.name
                == NavigatorErrorName(.notInFlow).fullName)
    }

    @Test func undoAfterAReloadBringsBackATreeRepairedToTheNewGraph() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        _ = try client.navigator("Push", [.string("product"), .vardict([("sku", .int64(1))])], at: shop)   // 2
        try client.push("reviews", at: shop)   // 3
        _ = try client.navigator("Pop", at: shop)   // 4
        _ = try client.navigator("Pop", at: shop)   // 5: catalog alone
        let outcome = try reload(navd, client, AppRouteFiles.shopWithoutReviews)
        #expect(outcome.after == outcome.before, "the tree fits the new graph: no revision")
        #expect(try client.property("CanUndo", at: shop).boolValue == true, "undo is kept when nothing changed")
        _ = try client.navigator("Undo", at: shop)
        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product"])
        // The next step back held reviews on top of product: repaired to the new graph it equals
        // the current tree, so Undo skips it (and the one before, also equal) and lands on catalog.
        _ = try client.navigator("Undo", at: shop)
        #expect(try client.navigatorRoutes(at: shop) == ["catalog"], "reviews is gone from the graph, so no undo brings it back")
    }
}
