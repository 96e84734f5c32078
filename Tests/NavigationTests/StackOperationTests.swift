import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct StackOperationTests {
    @Test func pushAddsAScreenWithANewId() throws {
        var coordinator = demo()
        let changeResult = coordinator.must(push("orange"))
        let change = try #require(changeResult)
        #expect(change.revision == 2 && !change.isNoOp && change.cause == "push")
        #expect(change.newScreenId == "#7")
        #expect(change.changedProperties == [.revision, .depth, .top, .topID, .canUndo, .backTarget])
        #expect(change.path == [entry("#2", "red", .root), entry("#7", "orange")])
        #expect(change.selectedTab == "rainbow")
        #expect(change.record == JournalRecord(entry: HistoryEntry(revision: 2, cause: "push", time: testTime + 1), operation: push("orange")))
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
    }

    @Test func pushWithParamsConvertsTypes() throws {
        var coordinator = demo()
        coordinator.must(.selectTab("news"))
        coordinator.must(push("news-item", ["id": .int(7)]))
        coordinator.must(push("news-item", ["id": .uint(8)]))
        #expect(coordinator.path == [
            entry("#4", "news-list", .root), entry("#7", "news-item", .push, ["id": .int(7)]),
            entry("#8", "news-item", .push, ["id": .int(8)]),
        ])
    }

    @Test func pushErrors() {
        let coordinator = demo()
        #expect(coordinator.refuse(push("nope")) == .unknownRoute("no route 'nope'; routes: red, orange, yellow, green, teal, blue, purple, news-list, news-item, profile, settings, login, forgot-password, modal, call-progress, call-success, call-error, account"))
        #expect(coordinator.refuse(push("news-item")) == .invalidParams("route 'news-item' needs param 'id' (int)"))
        #expect(coordinator.refuse(push("news-item", ["id": .string("7")])) == .invalidParams("param 'id' of route 'news-item' must be int (y n q i u x, or t up to 2^63-1), not a string"))
        #expect(coordinator.refuse(push("news-item", ["id": .uint(UInt64(Int64.max) + 1)]))?.name == "InvalidParams")
        #expect(coordinator.refuse(push("news-item", ["id": .variant(.int(7))])) == .invalidParams("param 'id' of route 'news-item' is a variant holding a variant; send a plain int (y n q i u x, or t up to 2^63-1)"))
        #expect(coordinator.refuse(push("red", ["x": .int(1)])) == .invalidParams("route 'red' has no param 'x'; it takes no params"))
        #expect(coordinator.refuse(push("login")) == .notPresentable("route 'login' cannot be shown as push (pushed); it allows cover"))
        #expect(coordinator.refuse(push("modal"))?.name == "NotPresentable")
    }

    @Test func popRemovesTheTopScreen() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(push("yellow"))
        let change = coordinator.must(.pop)
        #expect(change?.revision == 4)
        #expect(change?.changedProperties == [.revision, .depth, .top, .topID, .backTarget])
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
    }

    @Test func popAtRootIsAtRoot() {
        var coordinator = demo()
        #expect(coordinator.refuse(.pop) == .atRoot("the stack of tab 'rainbow' holds only its root screen 'red' (#2); nothing to pop"))
        coordinator.must(present("modal"))
        #expect(coordinator.refuse(.pop) == .atRoot("the top sheet holds only its root screen 'modal' (#7); use Dismiss or Back to close it"))
    }

    @Test func popToByIdAndRouteAcrossLayers() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(push("yellow"))  // #8
        coordinator.must(present("modal"))  // #9
        coordinator.must(push("green"))  // #10
        coordinator.must(push("orange"))  // #11
        var byRoute = coordinator
        byRoute.must(.popTo(target: "orange"))  // nearest from the top: #11, already on top → no-op
        #expect(byRoute.revision == coordinator.revision)
        byRoute.must(.popTo(target: "yellow"))
        #expect(byRoute.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "yellow")])
        var byId = coordinator
        byId.must(.popTo(target: "#7"))
        #expect(byId.path == [entry("#2", "red", .root), entry("#7", "orange")])
        byId.must(.popTo(target: "red"))
        #expect(byId.path == [entry("#2", "red", .root)])
        var intoLayer = coordinator
        intoLayer.must(.popTo(target: "modal"))
        #expect(intoLayer.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "yellow"), entry("#9", "modal", .sheet)])
    }

    @Test func popToTopIsANoOpAndMissingIsNotFound() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        let change = coordinator.must(.popTo(target: "#7"))
        #expect(change?.isNoOp == true && change?.revision == 2 && change?.record == nil)
        #expect(coordinator.refuse(.popTo(target: "news-list")) == .notFound("no screen on the path has id or route 'news-list'; the path is: red (#2), orange (#7)"))
        #expect(coordinator.refuse(.popTo(target: "#4"))?.name == "NotFound")  // exists, but in another tab
    }

    @Test func popToRoot() {
        var coordinator = demo()
        let first = coordinator.must(.popToRoot)
        #expect(first?.isNoOp == true)
        coordinator.must(push("orange"))
        coordinator.must(push("yellow"))
        coordinator.must(present("modal"))
        coordinator.must(push("green"))
        coordinator.must(.popToRoot)
        #expect(coordinator.routesOnPath == ["red", "orange", "yellow", "modal"])
        let last = coordinator.must(.popToRoot)
        #expect(last?.isNoOp == true)
    }

    @Test func replaceKeepsThePresentation() throws {
        var coordinator = demo()
        let replaced = coordinator.must(.replace(route: "news-list", params: [:]))  // a root may be any route
        let change = try #require(replaced)
        #expect(change.newScreenId == "#7")
        #expect(coordinator.path == [entry("#7", "news-list", .root)])
        coordinator.must(push("orange"))  // #8
        #expect(coordinator.refuse(.replace(route: "login", params: [:])) == .notPresentable("route 'login' cannot be shown as push (it would replace a screen shown as push); it allows cover"))
        coordinator.must(.replace(route: "yellow", params: [:]))  // #9
        #expect(coordinator.path == [entry("#7", "news-list", .root), entry("#9", "yellow")])
        coordinator.must(present("login", "cover"))  // #10
        coordinator.must(.replace(route: "modal", params: [:]))  // modal allows cover
        #expect(coordinator.path.last == entry("#11", "modal", .cover))
        #expect(coordinator.refuse(.replace(route: "red", params: [:]))?.name == "NotPresentable")
        #expect(coordinator.refuse(.replace(route: "zzz", params: [:]))?.name == "UnknownRoute")
        #expect(coordinator.refuse(.replace(route: "news-item", params: [:]))?.name == "InvalidParams")
    }

    @Test func setStackReplacesTheTopStack() {
        var coordinator = demo()
        coordinator.must(.setStack([ScreenRequest(route: "settings"), ScreenRequest(route: "news-item", params: ["id": .int(3)])]))
        #expect(coordinator.path == [entry("#7", "settings", .root), entry("#8", "news-item", .push, ["id": .int(3)])])
        coordinator.must(present("modal", "cover"))  // #9
        coordinator.must(.setStack([ScreenRequest(route: "login"), ScreenRequest(route: "forgot-password")]))
        #expect(coordinator.path == [
            entry("#7", "settings", .root), entry("#8", "news-item", .push, ["id": .int(3)]), entry("#10", "login", .cover),
            entry("#11", "forgot-password"),
        ])
        #expect(coordinator.refuse(.setStack([])) == .invalidParams("SetStack needs at least one screen: the first becomes the stack's root"))
        #expect(coordinator.refuse(.setStack([ScreenRequest(route: "red")])) == .notPresentable("route 'red' cannot be shown as cover (screen 0 of SetStack is shown as cover); it allows push"))
        #expect(coordinator.refuse(.setStack([ScreenRequest(route: "modal"), ScreenRequest(route: "login")]))?.name == "NotPresentable")
        #expect(coordinator.refuse(.setStack([ScreenRequest(route: "modal"), ScreenRequest(route: "nope")]))?.name == "UnknownRoute")
        #expect(coordinator.refuse(.setStack([ScreenRequest(route: "modal"), ScreenRequest(route: "news-item")]))?.name == "InvalidParams")
    }
}
