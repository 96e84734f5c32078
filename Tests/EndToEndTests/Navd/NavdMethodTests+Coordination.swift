import DBus
import Foundation
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// Send, Start, Finish, SetFacts, GetFlows, GetEvents, Resolve and the Facts property, with every
/// refusal named and explained.
extension NavdMethodTests {
    @Test func sendRunsTheHandlerOfTheFirstScopeAndAnswersItsOutcome() throws {
        let sent = try client.sendEvent("next")
        #expect(sent.revision == 2 && sent.outcome == "applied")
        #expect(try client.navigatorRoutes() == ["red", "orange"])
        // A tab handler: `end` opens /rainbow/purple, which has no `next` of its own.
        #expect(try client.sendEvent("end").outcome == "applied")
        #expect(try client.navigatorRoutes() == ["red", "purple"])
        let refusal = try #require(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("next")))
        #expect(refusal.name == NavigatorErrorName(.unhandledEvent).fullName)
        #expect(refusal.message.contains("'next'") && refusal.message.contains("route 'purple'"), "\(refusal.message)")
        #expect(refusal.message.contains("GetEvents"), "the message says what to do: \(refusal.message)")
        #expect(try client.navigatorState().revision == 3)
    }

    @Test func sendFromAScreenOnThePathActsOnTheTopAndALateEventIsStale() throws {
        let red = try client.navigatorState().path[0].id
        _ = try client.sendEvent("next")
        let orange = try client.navigatorState().path[1].id
        // From red, not on top but on the path: `next` of red pushes orange on the top stack.
        #expect(try client.sendEvent("next", from: red).outcome == "applied")
        #expect(try client.navigatorRoutes() == ["red", "orange", "orange"])
        _ = try client.navigator("PopToRoot")
        let stale = try #require(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("next", from: orange)))
        #expect(stale.name == NavigatorErrorName(.staleSource).fullName)
        #expect(stale.message.contains(orange) && stale.message.contains("not on the path"), "\(stale.message)")
        // The source is checked before the revision, the revision before the handler.
        #expect(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("next", from: orange, expectedRevision: 99))?.name
            == NavigatorErrorName(.staleSource).fullName)
        let revision = try client.navigatorState().revision
        let staleRevision = try #require(client.navigatorRefusal(
            NavigatorMethod.send.name, .sendArguments("fly", expectedRevision: revision + 5)))
        #expect(staleRevision.name == NavigatorErrorName(.staleRevision).fullName)
        #expect(try client.sendEvent("next", expectedRevision: revision).revision == revision + 1)
        #expect(try client.navigatorRoutes() == ["red", "orange"])
    }

    @Test func startFinishAndGetFlows() throws {
        _ = try client.navigator("SelectTab", [.string("profile")])
        #expect(try client.navigatorFlows().isEmpty)
        let started = try client.navigator(NavigatorMethod.start.name, [.string("auth"), .emptyParams])
        let flowID = try #require(started[1].stringValue)
        #expect(started[0].uint64Value == 3)
        let state = try client.navigatorState()
        #expect(state.path.map(\.route) == ["profile", "login"])
        #expect(state.path.last?.presentation == "cover")
        #expect(try client.navigatorFlows() == [FlowInfo(id: flowID, flow: "auth", firstScreen: state.path[1].id, params: [:])])
        #expect(!state.path.map(\.id).contains(flowID) && flowID != "auth", "a flow id is neither a screen id nor a name")

        let unknownOutput = try #require(client.navigatorRefusal(NavigatorMethod.finish.name, [.string("done"), .emptyParams]))
        #expect(unknownOutput.name == NavigatorErrorName(.unknownOutput).fullName)
        #expect(unknownOutput.message.contains("signed-in, cancelled"), "\(unknownOutput.message)")
        #expect(try client.navigator(NavigatorMethod.finish.name, [.string("cancelled"), .emptyParams])[0].uint64Value == 4)
        #expect(try client.navigatorRoutes() == ["profile"])
        #expect(try client.navigatorFlows().isEmpty)

        let notInFlow = try #require(client.navigatorRefusal(NavigatorMethod.finish.name, [.string("cancelled"), .emptyParams]))
        #expect(notInFlow.name == NavigatorErrorName(.notInFlow).fullName)
        #expect(notInFlow.message.contains("no flow encloses the top screen 'profile'"), "\(notInFlow.message)")
        let unknownFlow = try #require(client.navigatorRefusal(NavigatorMethod.start.name, [.string("nope"), .emptyParams]))
        #expect(unknownFlow.name == NavigatorErrorName(.unknownFlow).fullName)
        #expect(unknownFlow.message.contains("no flow 'nope'; flows: auth"), "\(unknownFlow.message)")
        #expect(client.navigatorRefusal(NavigatorMethod.start.name, [.string("auth"), .vardict([("x", .int32(1))])])?.name
            == NavigatorErrorName(.invalidParams).fullName)
        #expect(try client.navigatorState().revision == 4)
    }

    @Test func setFactsIsAllOrNothingPublishedAndNotUndone() throws {
        #expect(try client.navigatorFacts() == ["signed-in": .bool(false)])
        #expect(try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("signed-in", .boolean(true))])])[0].uint64Value == 2)
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)])
        // The values it already has: a no-op at the current revision.
        #expect(try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("signed-in", .boolean(true))])])[0].uint64Value == 2)
        let unknown = try #require(client.navigatorRefusal(
            NavigatorMethod.setFacts.name, [.vardict([("signed-in", .boolean(false)), ("nope", .boolean(true))])]))
        #expect(unknown.name == NavigatorErrorName(.unknownFact).fullName)
        #expect(unknown.message.contains("no fact 'nope'; facts: signed-in"), "\(unknown.message)")
        let wrongType = try #require(client.navigatorRefusal(NavigatorMethod.setFacts.name, [.vardict([("signed-in", .string("yes"))])]))
        #expect(wrongType.name == NavigatorErrorName(.invalidParams).fullName)
        #expect(wrongType.message.contains("'signed-in' is bool"), "\(wrongType.message)")
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)], "a refused SetFacts sets none of its facts")
        let history = try client.navigator("History", [.uint32(1)])[0].arrayValues ?? []
        #expect(history.first?.structFields?[1].stringValue == "setfacts")
        // A change of facts only is not an undo step.
        #expect(client.navigatorError("Undo") == NavigatorErrorName(.nothingToUndo).fullName)
        #expect(try client.navigatorState().revision == 2)
    }

    @Test func getEventsListsEachHandledEventOnceInnerScopesFirst() throws {
        #expect(try client.navigatorEvents() == ["next route", "root tab", "end tab", "show-modal tab"])
        _ = try client.navigator("Open", [.string("end")])
        #expect(try client.navigatorEvents() == ["root tab", "end tab", "show-modal tab"])
        let red = try client.navigatorState().path[0].id
        #expect(try client.navigatorEvents(red).first == "next route")
        _ = try client.navigator("SelectTab", [.string("profile")])
        _ = try client.sendEvent("log-in")
        #expect(try client.navigatorEvents() == ["forgot-password route", "succeeded route", "cancel route"])
        let stale = try #require(client.navigatorRefusal(NavigatorMethod.getEvents.name, [.string(red)]))
        #expect(stale.name == NavigatorErrorName(.staleSource).fullName)
        #expect(stale.message.contains("tab 'profile'"), "\(stale.message)")
    }

    @Test func resolveAnswersWhatACallWouldDoAndChangesNothing() throws {
        _ = try client.navigator("SelectTab", [.string("profile")])
        let before = try client.navigatorState()
        let historyBefore = try client.navigator("History", [.uint32(100)])[0]
        let redirect = try client.navigatorResolve("event", "account")
        #expect(redirect.outcome == .redirected)
        #expect(redirect.revision == before.revision + 1)
        #expect(redirect.tab == "profile")
        #expect(redirect.path.map(\.route) == ["profile", "login"])
        #expect(redirect.trace.contains { $0.contains("guard") && $0.contains("signed-in") }, "\(redirect.trace)")
        let link = try client.navigatorResolve("link", "end")
        #expect(link.outcome == .applied && link.tab == "rainbow" && link.path.map(\.route) == ["red", "purple"])
        #expect(try client.navigatorState() == before, "Resolve changes nothing")
        #expect(try client.navigatorFlows().isEmpty)
        #expect(try client.navigator("History", [.uint32(100)])[0] == historyBefore)

        let kind = try #require(client.navigatorRefusal(NavigatorMethod.resolve.name, [.string("bogus"), .string("x"), .emptyParams]))
        #expect(kind.name == DBusErrorName.invalidArgs)
        #expect(kind.message.contains("'event'") && kind.message.contains("'link'"), "\(kind.message)")
        #expect(client.navigatorRefusal(NavigatorMethod.resolve.name, [.string("event"), .string("fly"), .emptyParams])?.name
            == NavigatorErrorName(.unhandledEvent).fullName)
        #expect(client.navigatorRefusal(NavigatorMethod.resolve.name, [.string("link"), .string("/rainbow//orange"), .emptyParams])?.name
            == NavigatorErrorName(.badTarget).fullName)
        // Resolve then Send agree.
        let sent = try client.sendEvent("account")
        #expect(sent.outcome == "redirected" && sent.revision == redirect.revision)
        #expect(try client.navigatorState().path.map(\.route) == redirect.path.map(\.route))
    }

    @Test func aRedirectInsideTheGuardsOwnFlowIsAGuardLoop() throws {
        _ = try client.navigator("SelectTab", [.string("profile")])
        #expect(try client.sendEvent("account").outcome == "redirected")
        let revision = try client.navigatorState().revision
        let loop = try #require(client.navigatorRefusal("Push", [.string("account"), .emptyParams]))
        #expect(loop.name == NavigatorErrorName(.guardLoop).fullName)
        #expect(loop.message.contains("flow 'auth'") && loop.message.contains("already encloses"), "\(loop.message)")
        #expect(try client.navigatorState().revision == revision)
        #expect(try client.navigatorFlows().count == 1)
    }

    @Test func aRedirectedPushAnswersTheGuardFlowsFirstScreen() throws {
        _ = try client.navigator("SelectTab", [.string("profile")])
        let out = try client.navigator("Push", [.string("account"), .emptyParams])
        let state = try client.navigatorState()
        #expect(state.path.map(\.route) == ["profile", "login"])
        #expect(out[1].stringValue == state.path[1].id)
        #expect(try client.navigatorFlows().map(\.firstScreen) == [state.path[1].id])
    }

    @Test func applyTakesTheNewOps() throws {
        let ops = Contract.ops([
            Contract.op("selecttab", [("tab", .string("profile"))]),
            Contract.op("setfacts", [("facts", .vardict([("signed-in", .boolean(true))]))]),
            Contract.op("send", [("event", .string("account"))]),
        ])
        #expect(try client.navigator("Apply", [ops, .uint64(1)])[0].uint64Value == 2)
        #expect(try client.navigatorRoutes() == ["profile", "account"])
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)])
        let flows = Contract.ops([
            Contract.op("start", [("flow", .string("auth"))]), Contract.op("finish", [("output", .string("cancelled"))]),
        ])
        #expect(try client.navigator("Apply", [flows, .uint64(0)])[0].uint64Value == 2, "start then finish leaves the tree as it was")
        let bad = Contract.ops([
            Contract.op("send", [("event", .string("logout"))]), Contract.op("finish", [("output", .string("cancelled"))]),
        ])
        #expect(client.navigatorRefusal("Apply", [bad, .uint64(0)])?.name == NavigatorErrorName(.notInFlow).fullName)
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)], "a refused Apply sets no fact")
        let missing = Contract.ops([Contract.op("setfacts")])
        let refusal = try #require(client.navigatorRefusal("Apply", [missing, .uint64(0)]))
        #expect(refusal.name == NavigatorErrorName(.invalidOperation).fullName)
        #expect(refusal.message.contains("facts"), "\(refusal.message)")
        #expect(try client.navigatorState().revision == 2)
    }

    @Test func wrongSignaturesOfTheNewMethodsAreInvalidArgs() throws {
        #expect(client.navigatorError(NavigatorMethod.send.name, [.string(""), .string("next"), .emptyParams]) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError(NavigatorMethod.start.name, [.string("auth")]) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError(NavigatorMethod.setFacts.name, [.string("signed-in")]) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError(NavigatorMethod.getEvents.name) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError(NavigatorMethod.resolve.name, [.string("event"), .string("next")]) == DBusErrorName.invalidArgs)
        #expect(try client.navigatorState().revision == 1)
    }
}
