import Testing
@testable import Navigation
import RouteFiles

/// Guards, facts and the order rules of the contract on a route file of our own (`Tests/Fixtures/routes/vault.yaml`).
@Suite(.timeLimit(.minutes(1)))
struct GuardRuleTests {
    @Test func guardsAreCheckedAfterEachAction() throws {
        var wrong = try fixtureCoordinator("vault")
        #expect(wrong.must(send("wrong-order"))?.outcome == .redirected)
        #expect(wrong.routes == ["home", "pin"] && wrong.facts["unlocked"] == .bool(false))
        var right = try fixtureCoordinator("vault")
        #expect(right.must(send("right-order"))?.outcome == .applied)
        #expect(right.routes == ["home", "secret"])
    }

    @Test func theFirstFalseFactInRequiresOrderDecides() throws {
        var vault = try fixtureCoordinator("vault")
        vault.must(send("both"))
        #expect(vault.flows.map(\.flow) == ["verify"] && vault.path.last?.presentation == .sheet)
    }

    @Test func guardFailedWithoutAGuardOrWhenTheGuardFlowNeedsAFalseFactToo() throws {
        let vault = try fixtureCoordinator("vault")
        #expect(vault.refuse(send("shop")) == .guardFailed(
            "route 'shop-page' requires fact 'paid', which is false, and no guard handles it; set it with SetFacts first"))
        #expect(vault.refuse(send("admin-area")) == .guardFailed(
            "route 'admin-page' requires fact 'admin'; its guard flow 'broken' starts at route 'secret', which requires fact 'unlocked', also false"))
    }

    @Test func aKeptRequestThatFailsWhenResumedIsDroppedAndTheFlowStillFinishes() throws {
        var vault = try fixtureCoordinator("vault")
        vault.must(send("go"))
        let enter = vault.must(send("enter"))
        #expect(enter?.outcome == .finished)
        #expect(enter?.endedFlows.map(\.output) == ["ok"])
        #expect(enter?.notes.first?.contains("NotFound") == true)
        #expect(vault.routes == ["home"] && vault.facts["unlocked"] == .bool(true))
    }

    @Test func aRedirectedStartAnswersTheGuardFlowAndResumesTheStart() throws {
        var vault = try fixtureCoordinator("vault")
        let start = vault.must(.start(flow: "broken", params: [:]))
        #expect(start?.outcome == .redirected && start?.newFlowID == "#3")
        #expect(vault.flows == [FlowInfo(id: "#3", flow: "unlock", firstScreen: "#2", params: [:])])
        vault.must(send("enter"))
        #expect(vault.routes == ["home", "secret"] && vault.flows.map(\.flow) == ["broken"])
    }

    @Test func aFactTurningFalseRemovesItsScreensAndAbandonsTheirFlows() throws {
        var vault = try fixtureCoordinator("vault")
        vault.must(.setFacts(["unlocked": .bool(true)]))
        vault.must(.start(flow: "broken", params: [:]))
        vault.must(push("marker"))
        let lock = vault.must(.setFacts(["unlocked": .bool(false)]))
        #expect(lock?.cause == "setfacts" && lock?.endedFlows == [FlowEnd(id: "#3", flow: "broken", output: "")])
        #expect(vault.routes == ["home"])
    }

    @Test func aGuardedStackRootGivesWayToTheRootRoute() throws {
        var vault = try fixtureCoordinator("vault")
        vault.must(.setFacts(["unlocked": .bool(true)]))
        vault.must(.setStack([ScreenRequest(route: "secret"), ScreenRequest(route: "marker")]))
        vault.must(.setFacts(["unlocked": .bool(false)]))
        #expect(vault.path == [entry("#4", "home", .root)])
    }

    @Test func sendChecksSourceThenRevisionThenResolution() throws {
        var vault = try fixtureCoordinator("vault")
        vault.must(push("marker"))
        #expect(vault.refuse(.send(source: "#9", event: "nope", params: [:], expectedRevision: 7))?.name == "StaleSource")
        #expect(vault.refuse(.send(source: "#1", event: "nope", params: [:], expectedRevision: 7))?.name == "StaleRevision")
        #expect(vault.refuse(.send(source: "#1", event: "nope", params: [:], expectedRevision: 2))?.name == "UnhandledEvent")
        // An action acts on the top stack whatever the source: home's handler pushes above marker.
        vault.must(.send(source: "#1", event: "right-order", params: [:], expectedRevision: 2))
        #expect(vault.routes == ["home", "marker", "secret"])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct CoordinationReconcileAndTraceTests {
    @Test func reconcileDropsFlowsAndFactsTheGraphNoLongerDeclares() throws {
        var old = try fixtureCoordinator("vault")
        old.must(.setFacts(["unlocked": .bool(true), "admin": .bool(true)]))
        old.must(.start(flow: "unlock", params: [:]))
        let graph = try RouteGraph.load(yaml: "root: home\nfacts:\n  admin: { type: int, default: 4 }\nroutes:\n  home: {}\n  pin: {}\n", file: "new.yaml")
        var restored = Coordinator(graph: graph, restoring: old.state)
        #expect(restored.facts == ["admin": .int(4)])
        let result = restored.reconcile(at: testTime)
        #expect(result.warnings == ["flow 'unlock' (#3) is no longer in the route graph; its screens stay, it no longer encloses them"])
        #expect(restored.flows.isEmpty && restored.routes == ["home", "pin"])
        #expect(result.change?.endedFlows == [FlowEnd(id: "#3", flow: "unlock", output: "")])
    }

    @Test func theTraceNamesEachScopeTriedAndTheHandlerChosen() throws {
        var demo = Coordinator(graph: .demo)
        demo.must(send("next"))
        let root = try demo.resolve(.event("root", params: [:]))
        #expect(root.trace == [
            "event 'root' from orange (#7)", "  route 'orange': no handler", "  tab 'rainbow': open",
            "    open",
        ])
        #expect(root.outcome == .applied && root.path.map(\.route) == ["red"])
    }
}
