import Testing
@testable import Navigation
import RouteFiles

/// Every operation on the untabbed graph loaded from `smallGraphYAML`, trees written out whole.
@Suite(.timeLimit(.minutes(1)))
struct SmallGraphOperationTests {
    @Test func everyOperationOnASingleStack() throws {
        var coordinator = Coordinator(graph: try smallGraph())
        coordinator.must(push("list", ["filter": .string("new"), "page": .uint(2)]))  // #2
        coordinator.must(push("detail", ["id": .int(5), "zoom": .int(2)]))  // #3, zoom int → double
        #expect(coordinator.path == [
            entry("#1", "home", .root), entry("#2", "list", .push, ["filter": .string("new"), "page": .int(2)]),
            entry("#3", "detail", .push, ["id": .int(5), "zoom": .double(2)]),
        ])
        coordinator.must(present("editor", "sheet", ["id": .int(5)]))  // #4
        coordinator.must(present("alert", "cover"))  // #5
        #expect(coordinator.nodes == [
            Node(id: "#1", parentID: "", kind: .root, name: "home"),
            Node(id: "#2", parentID: "#1", kind: .push, name: "list", params: ["filter": .string("new"), "page": .int(2)]),
            Node(id: "#3", parentID: "#2", kind: .push, name: "detail", params: ["id": .int(5), "zoom": .double(2)]),
            Node(id: "#4", parentID: "#3", kind: .sheet, name: "editor", params: ["id": .int(5)]),
            Node(id: "#5", parentID: "#4", kind: .cover, name: "alert"),
        ])
        coordinator.must(.replace(route: "alert", params: [:]))  // #6 keeps cover
        #expect(coordinator.top == entry("#6", "alert", .cover))
        coordinator.must(.dismiss)
        #expect(coordinator.routesOnPath == ["home", "list", "detail", "editor"])
        #expect(coordinator.refuse(.pop)?.name == "AtRoot")
        coordinator.must(.back)  // dismisses the editor sheet
        coordinator.must(.popTo(target: "#2"))
        #expect(coordinator.path == [entry("#1", "home", .root), entry("#2", "list", .push, ["filter": .string("new"), "page": .int(2)])])
        coordinator.must(.popToRoot)
        #expect(coordinator.path == [entry("#1", "home", .root)])
        coordinator.must(.setStack([ScreenRequest(route: "detail", params: ["id": .int(1)]), ScreenRequest(route: "list")]))  // #7 #8
        #expect(coordinator.path == [entry("#7", "detail", .root, ["id": .int(1)]), entry("#8", "list")])
        coordinator.must(present("alert", "sheet"))  // #9
        coordinator.must(.dismissAll)
        coordinator.must(.open("/items/4"))  // #10 #11
        #expect(coordinator.path == [entry("#10", "home", .root), entry("#11", "detail", .push, ["id": .int(4)])])
        coordinator.must(.undo)
        #expect(coordinator.path == [entry("#7", "detail", .root, ["id": .int(1)]), entry("#8", "list")])
        coordinator.must(.redo)
        #expect(coordinator.path == [entry("#10", "home", .root), entry("#11", "detail", .push, ["id": .int(4)])])
        let apply = coordinator.must(.apply([
            RawOperation(name: "back"), RawOperation(name: "push", arguments: ["route": .string("list")]),
        ], expectedRevision: coordinator.revision))
        #expect(apply?.cause == "apply")
        #expect(coordinator.path == [entry("#10", "home", .root), entry("#12", "list")])
        #expect(coordinator.selectedTab == "" && coordinator.tabs.isEmpty)
    }

    @Test func errorsOnASingleStack() throws {
        let coordinator = Coordinator(graph: try smallGraph())
        #expect(coordinator.refuse(push("editor", ["id": .int(1)])) == .notPresentable("route 'editor' cannot be shown as push (pushed); it allows sheet"))
        #expect(coordinator.refuse(present("editor", "cover", ["id": .int(1)]))?.name == "NotPresentable")
        #expect(coordinator.refuse(present("editor", "sheet")) == .invalidParams("route 'editor' needs param 'id' (int)"))
        #expect(coordinator.refuse(push("detail", ["id": .int(1), "pinned": .int(1)])) == .invalidParams("param 'pinned' of route 'detail' must be bool (b), not an int"))
        #expect(coordinator.refuse(push("detail", ["id": .int(1), "zoom": .string("2")])) == .invalidParams("param 'zoom' of route 'detail' must be double (d or any integer type), not a string"))
        #expect(coordinator.refuse(push("list", ["filter": .other("o")])) == .invalidParams("param 'filter' of route 'list' must be string (s), not a D-Bus 'o'"))
        #expect(coordinator.refuse(.dismiss)?.message == "no sheet or cover is on the path; nothing to dismiss")
        #expect(coordinator.refuse(.back)?.message == "already at the root screen 'home' (#1) with no layer open; there is nothing to go back to")
        #expect(coordinator.refuse(.popTo(target: "list"))?.name == "NotFound")
        #expect(coordinator.refuse(.undo)?.name == "NothingToUndo")
        #expect(coordinator.refuse(.redo)?.name == "NothingToRedo")
        #expect(coordinator.refuse(.open("/nope"))?.message == "segment 'nope' of '/nope' names no route; routes: home, list, detail, editor, alert")
        #expect(coordinator.refuse(.apply([RawOperation(name: "pop")], expectedRevision: 2))?.name == "StaleRevision")
    }
}
