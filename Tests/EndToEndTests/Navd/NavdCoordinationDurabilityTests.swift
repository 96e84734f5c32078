import DBus
import Foundation
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// Facts, flow instances and a guard's pending intent are durable like the tree: they survive
/// SIGTERM and `kill -9` (navd restarted on the same state directory), and the intent still resumes.
@Suite("navd coordination durability", .serialized, .timeLimit(.minutes(3)))
struct NavdCoordinationDurabilityTests {
    /// navd on a private bus with a state directory of its own, and a client.
    private func started() throws -> (NavdOnPrivateBus, Connection) {
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        return (fixture, try Connection(.address(fixture.bus.address)))
    }

    /// On the profile tab, `account` redirected to the login cover and `forgot-password` pushed on it:
    /// a flow instance holding a pending intent, two screens inside it.
    private func redirectedToLogin(_ client: Connection) throws -> (flows: [FlowInfo], path: [PathEntry]) {
        _ = try client.navigator("SelectTab", [.string("profile")])
        #expect(try client.sendEvent("account").outcome == "redirected")
        #expect(try client.sendEvent("forgot-password").outcome == "applied")
        return (try client.navigatorFlows(), try client.navigatorState().path)
    }

    /// After a restart: the same flows and path, and the kept request resumes on `succeeded`.
    private func expectResumes(_ client: Connection, flows: [FlowInfo], path: [PathEntry]) throws {
        #expect(try client.navigatorFlows() == flows)
        #expect(try client.navigatorState().path == path)
        #expect(try client.sendEvent("sent").outcome == "applied")
        #expect(try client.sendEvent("succeeded").outcome == "resumed")
        #expect(try client.navigatorRoutes() == ["profile", "account"])
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)])
    }

    @Test func aFlowAndItsPendingIntentSurviveSigterm() throws {
        let (fixture, client) = try started()
        let navd = fixture.navd
        let (flows, path) = try redirectedToLogin(client)
        #expect(flows.count == 1 && flows[0].firstScreen == path[1].id)
        #expect(navd.stop() == 0)
        try navd.start()
        try expectResumes(client, flows: flows, path: path)
        // Facts survive a restart too, and a flow id is never reused.
        #expect(navd.stop() == 0)
        try navd.start()
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)])
        let next = try #require(try client.navigator(NavigatorMethod.start.name, [.string("auth"), .emptyParams])[1].stringValue)
        #expect(next != flows[0].id)
    }

    @Test func aFlowAndItsPendingIntentSurviveKillNine() throws {
        let (fixture, client) = try started()
        let navd = fixture.navd
        let (flows, path) = try redirectedToLogin(client)
        navd.kill9()
        while !ProcessExit.hasExited(navd.pid) { usleep(10_000) }
        try navd.start()
        try expectResumes(client, flows: flows, path: path)
    }

    @Test func killNineInABurstOfRedirectsAndCancelsLosesNothingAnswered() throws {
        let (fixture, client) = try started()
        let navd = fixture.navd
        _ = try client.navigator("SelectTab", [.string("profile")])
        let answered = AnsweredChanges()
        navd.kill9(after: 0.4) {
            var step = 0
            while true {
                do {
                    let event = step % 2 == 0 ? "account" : "cancel"
                    let out = try client.navigator(NavigatorMethod.send.name, .sendArguments(event), timeoutMilliseconds: 2_000)
                    answered.add(revision: out[0].uint64Value ?? 0, id: nil)
                } catch {
                    break  // navd is gone
                }
                step += 1
            }
        }
        #expect(answered.count > 5, "the burst answered only \(answered.count) calls before the kill")
        try navd.start()
        let state = try client.navigatorState()
        #expect(state.revision >= answered.maxRevision, "answered revision \(answered.maxRevision) lost; restored \(state.revision)")
        // The tree and the flows agree: the login cover is there exactly when its flow is.
        let flows = try client.navigatorFlows()
        if state.path.last?.route == "login" {
            #expect(flows.map(\.firstScreen) == [state.path[1].id])
            #expect(try client.sendEvent("succeeded").outcome == "resumed", "the kept request survived the kill")
            #expect(try client.navigatorRoutes() == ["profile", "account"])
        } else {
            #expect(flows.isEmpty)
            #expect(state.path.map(\.route) == ["profile"])
        }
        print("coordination durability: \(answered.count) answered events before kill -9, restored revision \(state.revision)")
    }
}
