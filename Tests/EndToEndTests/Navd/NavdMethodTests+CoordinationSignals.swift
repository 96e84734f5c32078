import DBus
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// The order reply → StackChanged → FlowFinished (one per ended flow, finished before abandoned)
/// → PropertiesChanged, the new causes, and Facts announced with PropertiesChanged.
extension NavdMethodTests {
    /// Lets `client` receive StackChanged, FlowFinished and PropertiesChanged (once per test).
    func subscribe() throws {
        try client.subscribeToNavigator()
        try client.addMatch(Navigator.flowFinishedRule)
    }

    /// Calls `member` and returns what follows, in order: the reply and navd's signals, up to and
    /// including the PropertiesChanged that closes the change.
    private func exchange(_ member: String, _ arguments: [DBusValue]) throws -> [Message] {
        let serial = try client.send(Message.navigatorCall(member, arguments))
        var messages: [Message] = []
        while messages.last?.member != "PropertiesChanged" {
            guard let message = client.waitForMessage(timeout: 10, matching: { m in
                (m.replySerial == serial && m.kind != .signal)
                    || (m.kind == .signal && m.path == Navigator.objectPath.rawValue)
            }) else { break }
            #expect(message.kind != .error, "\(member) failed: \(message.errorName ?? "")")
            messages.append(message)
        }
        return messages
    }

    private func labels(_ messages: [Message]) -> [String] {
        messages.map { $0.kind == .methodReturn ? "reply" : $0.member ?? "?" }
    }

    @Test func aResumedIntentIsAnsweredThenStackChangedThenFlowFinishedThenPropertiesChanged() throws {
        try subscribe()
        _ = try exchange("SelectTab", [.string("profile")])
        let redirect = try exchange(NavigatorMethod.send.name, .sendArguments("account"))
        #expect(labels(redirect) == ["reply", "StackChanged", "PropertiesChanged"])
        let flowID = try #require(try client.navigatorFlows().first?.id)

        let resume = try exchange(NavigatorMethod.send.name, .sendArguments("succeeded"))
        #expect(labels(resume) == ["reply", "StackChanged", "FlowFinished", "PropertiesChanged"])
        let reply = try resume[0].body()
        #expect(reply[1].stringValue == "resumed")
        let stackChanged = try resume[1].body()
        #expect(stackChanged[1].stringValue == "send")
        #expect(try Connection.path(stackChanged[3]).map(\.route) == ["profile", "account"])
        let finished = try FlowEnd.flowFinished(dbusValues: resume[2].body())
        #expect(finished.revision == reply[0].uint64Value)
        #expect(finished.flow == FlowEnd(id: flowID, flow: "auth", output: "signed-in", params: [:]))
        let changed = try #require(try resume[3].body()[1].stringKeyedPairs)
        let facts = try #require(changed.first { $0.0 == NavigatorProperty.facts.name }?.1)
        #expect(try [String: ParamValue](dbusValue: facts) == ["signed-in": .bool(true)])

        // logout: one change of cause send that removes account; no flow ends.
        let logout = try exchange(NavigatorMethod.send.name, .sendArguments("logout"))
        #expect(labels(logout) == ["reply", "StackChanged", "PropertiesChanged"])
        #expect(try logout[1].body()[1].stringValue == "send")
        #expect(try Connection.path(logout[1].body()[3]).map(\.route) == ["profile"])
    }

    @Test func anAbandonedFlowIsAnnouncedWithAnEmptyOutput() throws {
        try subscribe()
        _ = try exchange("SelectTab", [.string("profile")])
        let start = try exchange(NavigatorMethod.start.name, [.string("auth"), .emptyParams])
        #expect(try start[1].body()[1].stringValue == "start")
        let flowID = try #require(try start[0].body()[1].stringValue)
        let dismiss = try exchange("Dismiss", [])
        #expect(labels(dismiss) == ["reply", "StackChanged", "FlowFinished", "PropertiesChanged"])
        let ended = try FlowEnd.flowFinished(dbusValues: dismiss[2].body())
        #expect(ended.flow == FlowEnd(id: flowID, flow: "auth", output: ""))
        #expect(try client.navigatorFlows().isEmpty)
    }

    @Test func finishedFlowsComeBeforeAbandonedOnesInOneChange() throws {
        try subscribe()
        _ = try exchange("SelectTab", [.string("profile")])
        let outer = try #require(try exchange(NavigatorMethod.start.name, [.string("auth"), .emptyParams])[0].body()[1].stringValue)
        let inner = try #require(try exchange(NavigatorMethod.start.name, [.string("auth"), .emptyParams])[0].body()[1].stringValue)
        #expect(try client.navigatorFlows().map(\.id) == [outer, inner], "outer before inner")
        let ops = Contract.ops([Contract.op("finish", [("output", .string("cancelled"))]), Contract.op("dismiss")])
        let change = try exchange("Apply", [ops, .uint64(0)])
        #expect(labels(change) == ["reply", "StackChanged", "FlowFinished", "FlowFinished", "PropertiesChanged"])
        #expect(try change[1].body()[1].stringValue == "apply")
        let first = try FlowEnd.flowFinished(dbusValues: change[2].body()).flow
        let second = try FlowEnd.flowFinished(dbusValues: change[3].body()).flow
        #expect(first == FlowEnd(id: inner, flow: "auth", output: "cancelled"))
        #expect(second == FlowEnd(id: outer, flow: "auth", output: ""))
        #expect(try client.navigatorRoutes() == ["profile"])
    }

    @Test func setFactsIsAChangeOfCauseSetfactsThatPublishesFacts() throws {
        try subscribe()
        let change = try exchange(NavigatorMethod.setFacts.name, [.vardict([("signed-in", .boolean(true))])])
        #expect(labels(change) == ["reply", "StackChanged", "PropertiesChanged"])
        #expect(try change[1].body()[1].stringValue == "setfacts")
        let names = try #require(try change[2].body()[1].stringKeyedPairs).map(\.0)
        #expect(names.contains(NavigatorProperty.facts.name) && names.contains(NavigatorProperty.revision.name))
        #expect(!names.contains(NavigatorProperty.depth.name), "the path did not change")
    }
}
