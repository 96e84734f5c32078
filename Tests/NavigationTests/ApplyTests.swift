import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct ApplyTests {
    func raw(_ name: String, _ arguments: [String: InputValue] = [:]) -> RawOperation {
        RawOperation(name: name, arguments: arguments)
    }

    @Test func applyIsOneChange() throws {
        var coordinator = demo()
        let ops = [
            raw("push", ["route": .string("orange")]),
            raw("present", ["route": .string("modal"), "style": .string("sheet"), "params": .map([:])]),
            raw("setstack", ["screens": .list([.record([.string("modal"), .map([:])]), .record([.string("yellow"), .map([:])])])]),
            raw("selecttab", ["tab": .string("news")]),
            raw("push", ["route": .string("news-item"), "params": .map(["id": .int(4)])]),
        ]
        let result = coordinator.must(.apply(ops, expectedRevision: 1))
        let change = try #require(result)
        #expect(change.revision == 2 && change.cause == "apply" && change.newScreenId == nil)
        #expect(coordinator.path == [entry("#4", "news-list", .root), entry("#11", "news-item", .push, ["id": .int(4)])])
        coordinator.must(.selectTab("rainbow"))
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange"), entry("#9", "modal", .sheet), entry("#10", "yellow")])
        #expect(coordinator.history(limit: 5).map(\.cause) == ["selecttab", "apply"])
        coordinator.must(.undo)
        coordinator.must(.undo)  // one undo step for the whole Apply
        #expect(coordinator.path == [entry("#2", "red", .root)])
        #expect(coordinator.selectedTab == "rainbow")
    }

    @Test func everyOperationParses() {
        var coordinator = demo()
        let ops = [
            raw("push", ["route": .string("orange")]), raw("pop"), raw("push", ["route": .string("orange")]),
            raw("popto", ["target": .string("red")]), raw("poptoroot"), raw("replace", ["route": .string("blue")]),
            raw("present", ["route": .string("modal"), "style": .string("cover")]), raw("dismiss"),
            raw("present", ["route": .string("modal"), "style": .string("cover")]), raw("dismissall"),
            raw("push", ["route": .string("orange")]), raw("back"), raw("selecttab", ["tab": .string("news")]),
            raw("open", ["target": .string("end")]),
        ]
        coordinator.must(.apply(ops, expectedRevision: 0))
        #expect(coordinator.revision == 2)
        #expect(coordinator.routesOnPath == ["red", "purple"])
    }

    @Test func emptyApplyAndNetZeroApplyAreNoOps() {
        var coordinator = demo()
        let empty = coordinator.must(.apply([], expectedRevision: 0))
        #expect(empty?.isNoOp == true && empty?.revision == 1)
        let netZero = coordinator.must(.apply([raw("push", ["route": .string("orange")]), raw("pop")], expectedRevision: 1))
        #expect(netZero?.isNoOp == true && netZero?.revision == 1)
        #expect(coordinator.state.nextIdNumber == 7)  // a no-op keeps nothing, not even the counter
    }

    @Test func parseErrorsNameTheOp() {
        let coordinator = demo()
        #expect(coordinator.refuse(.apply([raw("pop"), raw("jump")], expectedRevision: 0)) == .invalidOperation("op 1: unknown operation 'jump'; use one of push, pop, popto, poptoroot, replace, setstack, present, dismiss, dismissall, back, selecttab, open, send, start, finish, setfacts, revert"))
        #expect(coordinator.refuse(.apply([raw("push")], expectedRevision: 0)) == .invalidOperation("op 0: push needs argument 'route' (a string)"))
        #expect(coordinator.refuse(.apply([raw("push", ["route": .int(1)])], expectedRevision: 0)) == .invalidOperation("op 0: argument 'route' of push must be a string, not an int"))
        #expect(coordinator.refuse(.apply([raw("pop", ["route": .string("x")])], expectedRevision: 0)) == .invalidOperation("op 0: pop has no argument 'route'; it takes no arguments"))
        #expect(coordinator.refuse(.apply([raw("present", ["route": .string("modal")])], expectedRevision: 0))?.message == "op 0: present needs argument 'style' (a string)")
        #expect(coordinator.refuse(.apply([raw("setstack", ["screens": .list([.string("red")])])], expectedRevision: 0))?.name == "InvalidOperation")
        #expect(coordinator.refuse(.apply([raw("push", ["route": .string("red"), "params": .string("x")])], expectedRevision: 0))?.name == "InvalidOperation")
        #expect(coordinator.refuse(.apply([raw("undo")], expectedRevision: 0))?.name == "InvalidOperation")
        #expect(coordinator.refuse(.apply([raw("apply")], expectedRevision: 0))?.name == "InvalidOperation")
    }

    @Test func checkOrderAcrossOps() {
        let coordinator = demo()
        // A bad name in op 1 is reported before bad params in op 0 (names before params across all ops).
        let ops = [raw("push", ["route": .string("news-item")]), raw("push", ["route": .string("nope")])]
        #expect(coordinator.refuse(.apply(ops, expectedRevision: 0)) == .unknownRoute("op 1: no route 'nope'; routes: red, orange, yellow, green, teal, blue, purple, news-list, news-item, profile, settings, login, forgot-password, modal, call-progress, call-success, call-error, account"))
        // Static errors come before StaleRevision; StaleRevision before tree-state errors.
        #expect(coordinator.refuse(.apply([raw("push", ["route": .string("news-item")])], expectedRevision: 9)) == .invalidParams("op 0: route 'news-item' needs param 'id' (int)"))
        #expect(coordinator.refuse(.apply([raw("pop")], expectedRevision: 9)) == .staleRevision("expected revision 9, but the tree is at revision 1; read the state again and retry"))
        #expect(coordinator.refuse(.apply([raw("push", ["route": .string("orange")]), raw("pop"), raw("pop")], expectedRevision: 1)) == .atRoot("op 2: the stack of tab 'rainbow' holds only its root screen 'red' (#2); nothing to pop"))
        #expect(coordinator.refuse(.apply([raw("push", ["route": .string("login")])], expectedRevision: 0)) == .notPresentable("op 0: route 'login' cannot be shown as push (pushed); it allows cover"))
        #expect(coordinator.refuse(.apply([raw("selecttab", ["tab": .string("x")])], expectedRevision: 0))?.message == "op 0: no tab 'x'; tabs: rainbow, news, profile")
    }

    @Test func applyLimits() throws {
        let coordinator = Coordinator(graph: try smallGraph())  // max-apply-ops 4, max-params-bytes 200
        let five = Array(repeating: raw("poptoroot"), count: 5)
        #expect(coordinator.refuse(.apply(five, expectedRevision: 0)) == .limitExceeded("Apply got 5 ops; the limit is 4"))
        let text = InputValue.string(String(repeating: "a", count: 60))
        let op = raw("push", ["route": .string("list"), "params": .map(["filter": text])])
        // Each op's params fit alone (about 85 bytes); together they do not.
        var alone = coordinator
        let oneResult = alone.must(.apply([op], expectedRevision: 0))
        #expect(oneResult?.revision == 2)
        #expect(coordinator.refuse(.apply([op, op, op], expectedRevision: 0))?.name == "LimitExceeded")
    }
}
