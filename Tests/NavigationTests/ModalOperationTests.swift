import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct ModalOperationTests {
    @Test func presentOpensALayer() throws {
        var coordinator = demo()
        let result = coordinator.must(present("login", "cover"))
        let change = try #require(result)
        #expect(change.newScreenId == "#7")
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "login", .cover)])
        coordinator.must(push("forgot-password"))
        coordinator.must(present("modal", "sheet"))
        #expect(coordinator.path == [
            entry("#2", "red", .root), entry("#7", "login", .cover), entry("#8", "forgot-password"), entry("#9", "modal", .sheet),
        ])
    }

    @Test func presentErrors() {
        let coordinator = demo()
        #expect(coordinator.refuse(present("login", "sheet")) == .notPresentable("route 'login' cannot be shown as sheet (presented); it allows cover"))
        #expect(coordinator.refuse(present("red", "sheet"))?.name == "NotPresentable")
        #expect(coordinator.refuse(present("modal", "popover")) == .notPresentable("unknown style 'popover'; use sheet or cover"))
        #expect(coordinator.refuse(present("modal", "push"))?.name == "NotPresentable")
        #expect(coordinator.refuse(present("nope", "popover"))?.name == "UnknownRoute")  // names before presentation
        #expect(coordinator.refuse(present("modal", "sheet", ["x": .bool(true)]))?.name == "InvalidParams")
    }

    @Test func dismissRemovesTheTopLayerOnly() {
        var coordinator = demo()
        #expect(coordinator.refuse(.dismiss) == .noModal("no sheet or cover is on the path of tab 'rainbow'; nothing to dismiss"))
        coordinator.must(present("modal", "sheet"))  // #7
        coordinator.must(push("orange"))  // #8
        coordinator.must(present("login", "cover"))  // #9
        coordinator.must(.dismiss)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "modal", .sheet), entry("#8", "orange")])
        coordinator.must(.dismiss)
        #expect(coordinator.path == [entry("#2", "red", .root)])
    }

    @Test func dismissAll() {
        var coordinator = demo()
        let none = coordinator.must(.dismissAll)
        #expect(none?.isNoOp == true && none?.revision == 1)
        coordinator.must(push("orange"))
        coordinator.must(present("modal", "sheet"))
        coordinator.must(present("login", "cover"))
        let change = coordinator.must(.dismissAll)
        #expect(change?.revision == 5 && change?.cause == "dismissall")
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
    }

    @Test func backPopsThenDismissesThenIsAtRoot() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(present("modal", "sheet"))  // #8
        coordinator.must(push("yellow"))  // #9
        coordinator.must(.back)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#8", "modal", .sheet)])
        coordinator.must(.back)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
        coordinator.must(.back)
        #expect(coordinator.path == [entry("#2", "red", .root)])
        #expect(coordinator.refuse(.back) == .atRoot("already at the root screen 'red' (#2) of tab 'rainbow' with no layer open; there is nothing to go back to"))
    }

    @Test func selectTabKeepsEachTabsLayers() {
        var coordinator = demo()
        coordinator.must(present("modal", "sheet"))  // #7 in rainbow
        let change = coordinator.must(.selectTab("news"))
        #expect(change?.changedProperties == [.revision, .depth, .top, .topID, .selectedTab, .backTarget])
        #expect(coordinator.selectedTab == "news")
        #expect(coordinator.path == [entry("#4", "news-list", .root)])
        coordinator.must(.selectTab("rainbow"))
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "modal", .sheet)])
        let same = coordinator.must(.selectTab("rainbow"))
        #expect(same?.isNoOp == true)
        #expect(coordinator.refuse(.selectTab("home")) == .unknownTab("no tab 'home'; tabs: rainbow, news, profile"))
    }

    @Test func selectTabInAnUntabbedAppIsNotTabbed() throws {
        let coordinator = Coordinator(graph: try smallGraph())
        #expect(coordinator.refuse(.selectTab("x")) == .notTabbed("this app is a single stack without tabs; there is no tab 'x' to select"))
        #expect(coordinator.selectedTab == "" && coordinator.tabs == [])
    }

    @Test func operationsActOnTheTopStackOfTheSelectedTab() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        coordinator.must(push("settings"))  // #7
        coordinator.must(present("login", "cover"))  // #8
        coordinator.must(push("forgot-password"))  // #9
        coordinator.must(.selectTab("rainbow"))
        coordinator.must(push("orange"))  // #10
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#10", "orange")])
        coordinator.must(.selectTab("profile"))
        coordinator.must(.pop)
        #expect(coordinator.path == [entry("#6", "profile", .root), entry("#7", "settings"), entry("#8", "login", .cover)])
    }
}
