import Testing
@testable import Navigation
import RouteFiles

/// GetEventParams: the events GetEvents lists, each with the `$event.` params its handler reads and their types.
/// `Tests/Fixtures/routes/event-reads.yaml` reads `$event.` everywhere a reference may stand: a flow's params, an
/// output's params, facts, set-stack screens, and the on-output handlers that a `finish` runs, two flows deep.
@Suite(.timeLimit(.minutes(1)))
struct EventParamsTests {
    static func reads(_ pairs: KeyValuePairs<String, ParamType>) -> ParamDeclaration {
        ParamDeclaration(
            types: Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) }), order: pairs.map(\.key),
            required: Set(pairs.map(\.key)))
    }

    @Test func theDemoCallErrorNeedsAMessageAndEveryListMatchesGetEvents() throws {
        var coordinator = demo()
        for step in [nil, send("next"), .selectTab("news"), .selectTab("profile"), send("log-in"), send("forgot-password")] {
            if let step { coordinator.must(step) }
            let listed = try coordinator.eventParams(source: "")
            #expect(listed.map { EventInfo(event: $0.event, scope: $0.scope) } == (try coordinator.events(source: "")))
            #expect(listed.allSatisfy { $0.params.order.isEmpty }, "no demo handler but call-progress' failed reads its event")
        }
        coordinator.must(.selectTab("news"))
        coordinator.must(send("call"))
        #expect(try coordinator.eventParams(source: "") == [
            EventParamsInfo(event: "succeeded", scope: "route"),
            EventParamsInfo(event: "failed", scope: "route", params: Self.reads(["message": .string])),
        ])
        #expect(coordinator.refuse(send("failed"))?.name == "InvalidParams")
        coordinator.must(send("failed", ["message": .string("timeout")]))
        #expect(coordinator.path.last?.params == ["message": .string("timeout")])
    }

    @Test func aFinishCountsTheOnOutputHandlersItRunsTwoFlowsDeep() throws {
        var coordinator = try fixtureCoordinator("event-reads")
        #expect(try coordinator.eventParams(source: "") == [
            EventParamsInfo(event: "begin", scope: "route", params: Self.reads(["budget": .double])),
        ])  // the on-output handler reads $event.note of the event that finishes the flow, not of begin
        coordinator.must(send("begin", ["budget": .double(9.5)]))
        coordinator.must(send("deeper"))
        let listed = try coordinator.eventParams(source: "")
        #expect(listed.map(\.event) == ["deeper", "choose", "jump", "again", "echo"])
        #expect(listed[0].params == ParamDeclaration(order: []))
        // choose finishes inner (colour), whose on-output sets vip and finishes outer (total), whose on-output
        // pushes summary with $event.note: all four come from choose.
        #expect(listed[1].params == Self.reads(["colour": .string, "vip": .bool, "total": .int, "note": .string]))
        #expect(listed[2].params == Self.reads(["total": .int]))
        #expect(listed[3].params == Self.reads(["n2": .string, "n": .int]))  // by key (note, total), each once
        #expect(listed[4].params == ParamDeclaration(order: []))  // $screen is not the event's
        let all: InputParams = ["colour": .string("teal"), "vip": .bool(true), "total": .int(3), "note": .string("ok")]
        for missing in all.keys.sorted() {
            var fewer = all
            fewer[missing] = nil
            let refusal = coordinator.refuse(send("choose", fewer))
            #expect(refusal?.name == "InvalidParams" && refusal?.message.contains(missing) == true, "\(missing): \(String(describing: refusal))")
        }
        #expect(coordinator.must(send("choose", all))?.outcome == .finished)
        #expect(coordinator.routes == ["home", "summary"])
        #expect(coordinator.path.last?.params == ["total": .int(3), "note": .string("ok")])
    }

    @Test func aScreenOffThePathIsStale() throws {
        var coordinator = demo()
        coordinator.must(send("next"))
        coordinator.must(.pop)
        #expect(throws: NavigationError.self) { try coordinator.eventParams(source: "#7") }
        #expect(try coordinator.eventParams(source: "#2").map(\.event) == ["next", "root", "end", "show-modal"])
    }
}
