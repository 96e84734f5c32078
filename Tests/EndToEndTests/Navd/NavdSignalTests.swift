import DBus
import NavigatorProtocol
import Testing
import TestSupport

/// `StackChanged` once per change with the right fields, `PropertiesChanged` after it, the
/// reply before both, and nothing at all for a failure or a no-op.
@Suite("navd signals", .timeLimit(.minutes(2)))
struct NavdSignalTests {
    /// The bus and navd, stopped when the test's instance is released.
    let fixture: NavdOnPrivateBus
    var bus: PrivateBus { fixture.bus }
    let client: Connection
    let watcher: Connection

    init() throws {
        fixture = try NavdOnPrivateBus()
        client = try Connection(.address(fixture.bus.address))
        watcher = try Connection(.address(fixture.bus.address))
        try watcher.subscribeToNavigator()
        try client.subscribeToNavigator()
    }

    private func isStackChanged(_ m: Message) -> Bool { m.kind == .signal && m.member == "StackChanged" }
    private func isPropertiesChanged(_ m: Message) -> Bool { m.kind == .signal && m.member == "PropertiesChanged" }

    @Test func oneStackChangedPerChangeWithRevisionCauseTabAndPath() throws {
        _ = try client.navigator("Push", [.string("orange"), .emptyParams])
        let signal = try #require(watcher.waitForMessage(timeout: 5, matching: isStackChanged))
        let body = try signal.body()
        #expect(body[0].uint64Value == 2)
        #expect(body[1].stringValue == "push")
        #expect(body[2].stringValue == "rainbow")
        #expect(try Connection.path(body[3]).map(\.route) == ["red", "orange"])
        let properties = try #require(watcher.waitForMessage(timeout: 5, matching: isPropertiesChanged))
        let changed = try properties.body()
        #expect(changed[0].stringValue == Navigator.interfaceName)
        let names = (changed[1].stringKeyedPairs ?? []).map(\.0)
        #expect(names.contains("Revision") && names.contains("Depth") && names.contains("Top") && names.contains("TopId"))
    }

    @Test func failuresAndNoOpsSendNothing() throws {
        #expect(client.navigatorError("Pop") != nil)               // failure
        _ = try client.navigator("PopToRoot")                       // no-op
        _ = try client.navigator("SelectTab", [.string("rainbow")]) // no-op
        _ = try client.navigator("Push", [.string("yellow"), .emptyParams])
        // The first StackChanged the watcher sees is the push's.
        let signal = try #require(watcher.waitForMessage(timeout: 5, matching: isStackChanged))
        #expect(try signal.body()[1].stringValue == "push")
        #expect(try signal.body()[0].uint64Value == 2)
    }

    @Test func replyThenStackChangedThenPropertiesChanged() throws {
        let message = try Message.navigatorCall("Push", [.string("green"), .emptyParams])
        let serial = try client.send(message)
        var order: [String] = []
        while order.count < 3 {
            guard let m = client.waitForMessage(timeout: 5, matching: { m in
                (m.kind == .methodReturn && m.replySerial == serial) || m.member == "StackChanged" || m.member == "PropertiesChanged"
            }) else { break }
            order.append(m.kind == .methodReturn ? "reply" : m.member ?? "?")
        }
        #expect(order == ["reply", "StackChanged", "PropertiesChanged"])
    }

    @Test func pipelinedCallsEachGetTheirOwnSignalInOrder() throws {
        var serials: [UInt32] = []
        for i in 0..<40 {
            let message = try i % 2 == 0
                ? Message.navigatorCall("Push", [.string("blue"), .emptyParams]) : Message.navigatorCall("Pop")
            serials.append(try client.send(message))
        }
        client.flush()
        var revisions: [UInt64] = []
        while revisions.count < 40 {
            guard let m = watcher.waitForMessage(timeout: 5, matching: isStackChanged) else { break }
            revisions.append(try m.body()[0].uint64Value ?? 0)
        }
        #expect(revisions == Array(2...41))
        #expect(try client.navigatorState().revision == 41)
    }

    @Test func applySendsOneSignalWithCauseApply() throws {
        let ops = Contract.ops([
            Contract.op("push", [("route", .string("orange"))]),
            Contract.op("present", [("route", .string("modal")), ("style", .string("sheet"))]),
        ])
        _ = try client.navigator("Apply", [ops, .uint64(0)])
        _ = try client.navigator("Push", [.string("teal"), .emptyParams])
        let first = try #require(watcher.waitForMessage(timeout: 5, matching: isStackChanged))
        #expect(try first.body()[1].stringValue == "apply")
        #expect(try first.body()[0].uint64Value == 2)
        let second = try #require(watcher.waitForMessage(timeout: 5, matching: isStackChanged))
        #expect(try second.body()[0].uint64Value == 3)
    }
}
