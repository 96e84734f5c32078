import Testing
@testable import Navigation
import RouteFiles

/// The seed demos of the reference articles, as events on the demo graph.
@Suite(.timeLimit(.minutes(1)))
struct CoordinationDemoTests {
    @Test func rainbowNextRootEndAndModal() {
        var coordinator = demo()
        let change = coordinator.must(send("next"))
        #expect(change?.cause == "send" && change?.outcome == .applied && change?.revision == 2)
        #expect(coordinator.path == [entry("#2", "red", .root), entry("#7", "orange")])
        for _ in 0..<5 { coordinator.must(send("next")) }
        #expect(coordinator.routes == ["red", "orange", "yellow", "green", "teal", "blue", "purple"])
        #expect(coordinator.refuse(send("next")) == .unhandledEvent(
            "no handler for event 'next' from route 'purple' (#12); searched route 'purple', tab 'rainbow', app; add `on: { next: … }` to one of them, or send an event listed by GetEvents"))
        coordinator.must(send("root"))
        #expect(coordinator.routes == ["red"])
        coordinator.must(send("end"))
        #expect(coordinator.routes == ["red", "purple"])
        coordinator.must(send("show-modal"))
        #expect(coordinator.path.last?.route == "modal" && coordinator.path.last?.presentation == .cover)
        coordinator.must(send("close"))
        #expect(coordinator.routes == ["red", "purple"])
    }

    @Test func loginRedirectForgotPasswordAndResume() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        let redirect = coordinator.must(send("account"))
        #expect(redirect?.outcome == .redirected)
        #expect(coordinator.path == [entry("#6", "profile", .root), entry("#7", "login", .cover)])
        #expect(coordinator.flows == [FlowInfo(id: "#8", flow: "auth", firstScreen: "#7", params: [:])])
        #expect(redirect?.newFlowID == "#8")
        coordinator.must(send("forgot-password"))
        #expect(coordinator.routes == ["profile", "login", "forgot-password"])
        coordinator.must(send("sent"))
        #expect(coordinator.routes == ["profile", "login"])
        let resume = coordinator.must(send("succeeded"))
        #expect(resume?.outcome == .resumed)
        #expect(resume?.endedFlows == [FlowEnd(id: "#8", flow: "auth", output: "signed-in")])
        #expect(resume?.changedProperties.contains(.facts) == true)
        #expect(coordinator.path == [entry("#6", "profile", .root), entry("#10", "account")])
        #expect(coordinator.facts == ["signed-in": .bool(true)])
        #expect(coordinator.flows.isEmpty)
        let logout = coordinator.must(send("logout"))
        #expect(logout?.cause == "send" && logout?.outcome == .applied)
        #expect(coordinator.routes == ["profile"])
        #expect(coordinator.facts == ["signed-in": .bool(false)])
    }

    @Test func callProgressSuccessOrErrorAndRetry() {
        var coordinator = demo()
        coordinator.must(.selectTab("news"))
        coordinator.must(send("call"))
        #expect(coordinator.routes == ["news-list", "call-progress"])
        #expect(coordinator.refuse(send("failed"))?.message
            == "handler of 'failed' in route 'call-progress', action 1 (replace): 'message' reads $event.message, but event 'failed' came without param 'message'; send it with message=VALUE")
        coordinator.must(send("failed", ["message": .string("no line"), "unused": .int(1)]))
        #expect(coordinator.path.last == entry("#8", "call-error", .push, ["message": .string("no line")]))
        coordinator.must(send("retry"))
        #expect(coordinator.routes == ["news-list", "call-progress"])
        coordinator.must(send("succeeded"))
        #expect(coordinator.routes == ["news-list", "call-success"])
    }

    @Test func cancelDropsTheKeptRequest() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        coordinator.must(push("account"))  // redirected: the Push itself is kept
        #expect(coordinator.routes == ["profile", "login"])
        let cancel = coordinator.must(send("cancel"))
        #expect(cancel?.outcome == .finished)
        #expect(cancel?.endedFlows == [FlowEnd(id: "#8", flow: "auth", output: "cancelled")])
        #expect(coordinator.routes == ["profile"])
    }

    @Test func aRedirectedPushAnswersTheScreenNowOnTop() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        let change = coordinator.must(push("account"))
        #expect(change?.outcome == .redirected && change?.newScreenId == "#7" && change?.newFlowID == "#8")
        coordinator.must(.setFacts(["signed-in": .bool(true)]))
        let finish = coordinator.must(.finish(output: "signed-in", params: [:]))
        #expect(finish?.cause == "finish" && finish?.outcome == .resumed)
        #expect(coordinator.routes == ["profile", "account"])
    }

    /// The demo after `account` was asked for on the profile tab while signed out: the request kept, the
    /// auth flow (#8) started, login (#7) on top (as `loginRedirectForgotPasswordAndResume` checks).
    func redirectedToLogin() -> Coordinator {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        coordinator.must(send("account"))
        return coordinator
    }

    @Test func abandoningTheGuardFlowDropsTheIntent() {
        var coordinator = redirectedToLogin()
        let dismiss = coordinator.must(.dismiss)
        #expect(dismiss?.endedFlows == [FlowEnd(id: "#8", flow: "auth", output: "")])
        coordinator.must(.setFacts(["signed-in": .bool(true)]))
        #expect(coordinator.routes == ["profile"])
        #expect(coordinator.refuse(.finish(output: "signed-in", params: [:])) == .notInFlow(
            "no flow encloses the top screen 'profile' (#6); Finish ends a flow begun with Start or a start action"))
    }

    @Test func staleSourceAndGetEvents() throws {
        var coordinator = demo()
        coordinator.must(send("next"))
        #expect(try coordinator.events(source: "") == [
            EventInfo(event: "next", scope: "route"), EventInfo(event: "root", scope: "tab"),
            EventInfo(event: "end", scope: "tab"), EventInfo(event: "show-modal", scope: "tab"),
        ])
        coordinator.must(.pop)
        #expect(coordinator.refuse(send("next", from: "#7"))?.name == "StaleSource")
        #expect(coordinator.refuse(send("call", from: "#4"))?.name == "StaleSource")  // another tab
        #expect(throws: NavigationError.self) { try coordinator.events(source: "#7") }
        coordinator.must(send("next", from: "#2"))
        coordinator.must(.selectTab("profile"))
        coordinator.must(send("log-in"))
        #expect(try coordinator.events(source: "").map(\.event) == ["forgot-password", "succeeded", "cancel"])
    }

    @Test func guardLoopAndErrorsOfTheNewCalls() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        coordinator.must(.start(flow: "auth", params: [:]))
        #expect(coordinator.refuse(push("account"))?.name == "GuardLoop")
        #expect(coordinator.refuse(.start(flow: "checkout", params: [:])) == .unknownFlow("no flow 'checkout'; flows: auth"))
        #expect(coordinator.refuse(.finish(output: "done", params: [:])) == .unknownOutput("flow 'auth' has no output 'done'; its outputs: signed-in, cancelled"))
        #expect(coordinator.refuse(.finish(output: "cancelled", params: ["x": .int(1)]))?.name == "InvalidParams")
        #expect(coordinator.refuse(.setFacts(["admin": .bool(true)])) == .unknownFact("no fact 'admin'; facts: signed-in"))
        #expect(coordinator.refuse(.setFacts(["signed-in": .string("yes")]))?.name == "InvalidParams")
        #expect(coordinator.refuse(.start(flow: "auth", params: ["x": .int(1)]))?.name == "InvalidParams")
    }

    @Test func settingFactsIsAChangeButNotAnUndoStep() {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(.undo)
        let set = coordinator.must(.setFacts(["signed-in": .bool(true)]))
        #expect(set?.isNoOp == false && set?.cause == "setfacts" && set?.changedProperties == [.revision, .facts])
        #expect(coordinator.canRedo)  // the redo list is kept
        #expect(coordinator.must(.setFacts(["signed-in": .bool(true)]))?.isNoOp == true)
        coordinator.must(.redo)
        #expect(coordinator.routes == ["red", "orange"])
    }

    @Test func undoNeverBringsBackAGuardedScreenWithItsFactFalse() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        coordinator.must(.setFacts(["signed-in": .bool(true)]))
        coordinator.must(push("account"))
        coordinator.must(push("settings"))
        coordinator.must(.setFacts(["signed-in": .bool(false)]))
        #expect(coordinator.routes == ["profile"])
        // The two recorded trees with account repair to the current one: undo passes over them.
        coordinator.must(.undo)
        #expect(coordinator.selectedTab == "rainbow" && coordinator.routes == ["red"])
        coordinator.must(.redo)
        #expect(coordinator.selectedTab == "profile" && coordinator.routes == ["profile"])
        #expect(coordinator.refuse(.redo)?.name == "NothingToRedo")
        // With the fact true again, the recorded tree with account may come back.
        coordinator.must(.setFacts(["signed-in": .bool(true)]))
        coordinator.must(.redo)
        #expect(coordinator.routes == ["profile", "account"])
    }

    @Test func undoOfARedirectAbandonsTheFlowAndRedoBringsItBack() {
        var coordinator = redirectedToLogin()
        let undo = coordinator.must(.undo)
        #expect(undo?.endedFlows == [FlowEnd(id: "#8", flow: "auth", output: "")])
        #expect(coordinator.flows.isEmpty)
        coordinator.must(.redo)
        #expect(coordinator.flows == [FlowInfo(id: "#8", flow: "auth", firstScreen: "#7", params: [:])])
        coordinator.must(send("succeeded"))  // the kept request came back with its flow
        #expect(coordinator.routes == ["profile", "account"])
    }

    @Test func resolveIsTheSendItPredicts() throws {
        var coordinator = demo()
        let before = coordinator.state
        let resolution = try coordinator.resolve(.event("next", params: [:]))
        #expect(coordinator.state == before)
        #expect(resolution.outcome == .applied && resolution.revision == 2 && resolution.tab == "rainbow")
        #expect(resolution.trace.first == "event 'next' from red (#2)")
        coordinator.must(send("next"))
        #expect(coordinator.path == resolution.path)
        #expect(try coordinator.resolve(.link("/news/3")).path.map(\.route) == ["news-list", "news-item"])
        #expect(try coordinator.resolve(.link("/rainbow/orange")).outcome == .applied)
        #expect(throws: NavigationError.self) { try coordinator.resolve(.event("nope", params: [:])) }
        coordinator.must(.selectTab("profile"))
        let redirect = try coordinator.resolve(.event("account", params: [:]))
        #expect(redirect.outcome == .redirected && redirect.path.map(\.route) == ["profile", "login"])
        #expect(redirect.trace.contains { $0.contains("guard: route 'account' needs fact 'signed-in'") })
    }

    @Test func applyRunsTheNewOpsAndIsRedirectedWhole() {
        var coordinator = demo()
        coordinator.must(.selectTab("profile"))
        let apply = coordinator.must(.apply([
            RawOperation(name: "push", arguments: ["route": .string("settings")]),
            RawOperation(name: "push", arguments: ["route": .string("account")]),
        ], expectedRevision: 0))
        #expect(apply?.outcome == .redirected)
        #expect(coordinator.routes == ["profile", "login"])
        coordinator.must(.apply([
            RawOperation(name: "setfacts", arguments: ["facts": .map(["signed-in": .bool(true)])]),
            RawOperation(name: "finish", arguments: ["output": .string("signed-in")]),
        ], expectedRevision: 0))
        #expect(coordinator.routes == ["profile", "settings", "account"])
        coordinator.must(.apply([RawOperation(name: "send", arguments: ["event": .string("logout")])], expectedRevision: 0))
        #expect(coordinator.routes == ["profile", "settings"])
        coordinator.must(.apply([RawOperation(name: "start", arguments: ["flow": .string("auth")])], expectedRevision: 0))
        #expect(coordinator.flows.count == 1)
    }

    @Test func handlerActionsCountAgainstMaxApplyOps() {
        var graph = RouteGraph.demo
        graph.limits.maxApplyOps = 2
        var coordinator = Coordinator(graph: graph)
        coordinator.must(.selectTab("profile"))
        coordinator.must(send("account"))  // send + push, then the redirect
        // send + set-facts + finish: three steps.
        #expect(coordinator.refuse(send("succeeded"))?.name == "LimitExceeded")
    }

    @Test func journalReplayAndSnapshotsKeepFlowsFactsAndIntents() throws {
        var original = demo()
        let start = original
        var records: [JournalRecord] = []
        for op in [Operation.selectTab("profile"), send("account"), send("forgot-password"), send("sent"), push("settings")] {
            if let record = original.must(op)?.record { records.append(record) }
        }
        var replayed = start
        for record in records { _ = try replayed.replay(JournalRecord.decode(record.encoded())) }
        #expect(replayed.state == original.state)
        let decoded = try NavigationState.decodeSnapshot(original.state.encodedSnapshot())
        #expect(decoded == original.state)
        var restored = Coordinator(graph: .demo, restoring: decoded)
        restored.must(.pop)
        restored.must(send("succeeded"))
        #expect(restored.routes == ["profile", "account"])
    }
}
