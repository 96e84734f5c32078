import DBus
import Foundation
import NavigatorProtocol
import Navigation
import TestSupport
import Testing
@testable import NavdService

/// The coordination methods in a group commit: FlowFinished after its change's StackChanged, in
/// arrival order, one PropertiesChanged at the end; and the rollback after a failed commit.
extension InProcessDaemonTests {
    @Test func flowFinishedFollowsItsChangesStackChangedInsideAGroupCommit() throws {
        let navd = try InProcessDaemon("flows")
        defer { navd.stop() }
        try navd.send(.selectTab, [.string("profile")])
        try navd.send(.send, [.string(""), .string("account"), InProcessDaemon.noParams, .uint64(0)])    // redirected
        try navd.send(.send, [.string(""), .string("succeeded"), InProcessDaemon.noParams, .uint64(0)])  // resumed: auth finishes
        try navd.send(.start, [.string("auth"), InProcessDaemon.noParams])
        try navd.send(.dismiss)                                                               // auth abandoned
        try navd.settle()
        navd.start()
        let messages = try navd.receive(14)
        #expect(messages.map(\.label) == [
            "StackChanged",
            "reply", "StackChanged",
            "reply", "StackChanged",
            "reply", "StackChanged", "FlowFinished",
            "reply", "StackChanged",
            "reply", "StackChanged", "FlowFinished",
            "PropertiesChanged",
        ])
        let replies = messages.filter { $0.kind == .methodReturn }
        #expect(try replies[2].body()[1].requiredString("outcome") == "resumed")
        let startedID = try replies[3].body()[1].requiredString("flow_id")
        let finished = try FlowEnd.flowFinished(dbusValues: messages[7].body())
        #expect(finished.revision == 4 && finished.flow.output == "signed-in" && finished.flow.flow == "auth")
        let abandoned = try FlowEnd.flowFinished(dbusValues: messages[12].body())
        #expect(abandoned.revision == 6 && abandoned.flow == FlowEnd(id: startedID, flow: "auth", output: ""))
        let changed = try #require(try messages.last?.body()[1].stringKeyedPairs)
        let facts = try #require(changed.first { $0.0 == NavigatorProperty.facts.name }?.1)
        #expect(try [String: ParamValue](dbusValue: facts) == ["signed-in": .bool(true)])
        #expect(try navd.daemon.store?.load().journal.map(\.revision) == [2, 3, 4, 5, 6])
    }

    @Test func theReadersCommitWhatIsPendingFirstAndSeeOnlyDurableState() throws {
        let navd = try InProcessDaemon("readers")
        defer { navd.stop() }
        try navd.send(.selectTab, [.string("profile")])
        try navd.send(.send, [.string(""), .string("account"), InProcessDaemon.noParams, .uint64(0)])
        try navd.send(.getFlows)
        try navd.send(.getEvents, [.string("")])
        try navd.send(.resolve, [.string("event"), .string("succeeded"), InProcessDaemon.noParams])
        try navd.settle()
        navd.start()
        let messages = try navd.receive(9)
        #expect(messages.map(\.label) == [
            "StackChanged", "reply", "StackChanged", "reply", "StackChanged", "PropertiesChanged", "reply", "reply", "reply",
        ])
        let flows = try [FlowInfo](dbusValue: messages[6].body()[0])
        #expect(flows.map(\.flow) == ["auth"])
        #expect(try [EventInfo](dbusValue: messages[7].body()[0]).map(\.event) == ["forgot-password", "succeeded", "cancel"])
        let resolution = try Resolution(dbusValues: messages[8].body())
        #expect(resolution.outcome == .resumed && resolution.revision == 4)
        // What the readers answered was on disk when they answered; Resolve added nothing.
        #expect(try navd.daemon.store?.load().journal.map(\.revision) == [2, 3])
        #expect(navd.daemon.coordinator.revision == 3)
    }

    @Test func aFailedCommitOfCoordinationCallsLeavesNoFlowNoFactAndNoSignal() throws {
        let navd = try InProcessDaemon("coordination-rollback")
        defer { navd.stop() }
        let store = try #require(navd.daemon.store)
        try withStoreDatabase(store) { try $0.exec("PRAGMA query_only = 1") }
        try navd.send(.selectTab, [.string("profile")])
        try navd.send(.send, [.string(""), .string("account"), InProcessDaemon.noParams, .uint64(0)])
        try navd.send(.setFacts, [(["signed-in": .bool(true)] as [String: ParamValue]).dbusValue])
        try navd.send(.send, [.string(""), .string("next"), InProcessDaemon.noParams, .uint64(0)])
        try navd.send(.start, [.string("auth"), InProcessDaemon.noParams])
        try navd.send(.dismiss)
        try navd.settle()
        navd.start()
        // Each call answered as if the batch ran against the restored state (the rainbow tab, red on top).
        let messages = try navd.receive(7)
        #expect(messages.map(\.label) == [
            "StackChanged", "error:StorageFailed", "error:UnhandledEvent", "error:StorageFailed", "error:StorageFailed",
            "error:StorageFailed", "error:NoModal",
        ])
        try navd.send(.getFlows)
        let flows = try navd.receive(1)
        #expect(flows.map(\.label) == ["reply"], "no StackChanged, FlowFinished or PropertiesChanged for the refused batch")
        #expect(try [FlowInfo](dbusValue: flows[0].body()[0]).isEmpty)
        #expect(navd.daemon.coordinator.facts == ["signed-in": .bool(false)])
        #expect(navd.daemon.coordinator.revision == 1)
    }
}
