import DBus
import Foundation
import TestSupport
import Testing

/// The ObjectServer, exercised by this process' own client over a private bus.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
final class ObjectServerTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    @Test func methodsAnswerWithTheirOutValues() throws {
        #expect(try fixture.call("Add", [.int32(2), .int32(40)]) == [.int32(42)])
        #expect(try fixture.call("Echo", [.variant(.vardict([("k", .int64(1))]))]) == [.variant(.vardict([("k", .int64(1))]))])
        #expect(try fixture.call("Describe", [.string("news-item"), .vardict([("id", .int64(7))])])
            == [.uint64(1), .string("news-item:id")])
    }

    @Test func callsWithoutInterfaceResolveByMember() throws {
        #expect(try fixture.call("Add", [.int32(1), .int32(1)], interface: nil) == [.int32(2)])
        #expect(try fixture.call("Ping", interface: nil) == [])
    }

    @Test func wrongSignaturesGetInvalidArgsNamingBoth() throws {
        let error = try #require(fixture.error("Add", [.string("2"), .int32(40)]))
        #expect(error.name == DBusErrorName.invalidArgs)
        #expect(error.message.contains("'ii'") && error.message.contains("'si'"))
        #expect(fixture.error("Describe", [.string("r"), .stringDictionary([("id", "7")])])?.name == DBusErrorName.invalidArgs)
        #expect(fixture.error("Add")?.name == DBusErrorName.invalidArgs)
        #expect(fixture.error("Get", [.string("org.navd.Test1")], interface: "org.freedesktop.DBus.Properties")?.name
            == DBusErrorName.invalidArgs)
    }

    @Test func unknownNamesGetTheirStandardErrors() {
        #expect(fixture.error("Nope")?.name == DBusErrorName.unknownMethod)
        #expect(fixture.error("Nope", interface: nil)?.name == DBusErrorName.unknownMethod)
        #expect(fixture.error("Add", [.int32(1), .int32(2)], interface: "org.navd.Other")?.name == DBusErrorName.unknownInterface)
        #expect(fixture.error("Add", [.int32(1), .int32(2)], path: "/org/navd/Nothing")?.name == DBusErrorName.unknownObject)
        #expect(fixture.error("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/nowhere")?.name
            == DBusErrorName.unknownObject)
    }

    @Test func throwingHandlersGetErrorReplies() {
        #expect(fixture.error("Refuse") == DBusError(name: "org.navd.Test1.Error.Refused", message: "not today"))
        #expect(fixture.error("Crash") == DBusError(name: DBusErrorName.failed, message: "the handler gave up"))
        let misbehaved = fixture.error("Misbehave")
        #expect(misbehaved?.name == DBusErrorName.failed)
        #expect(misbehaved?.message.contains("'s' where 't' is declared") == true)
        #expect(fixture.error("Square", [.variant(.string("seven"))])?.name == DBusErrorName.invalidArgs)
        let garbled = fixture.error("Garble")
        #expect(garbled?.name == DBusErrorName.failed)
        #expect(garbled?.message.contains("cannot be sent") == true, "\(String(describing: garbled))")
    }

    @Test func noReplyExpectedCallsGetNoReply() throws {
        let note = try Message.methodCall(destination: testBusName, path: testPath.rawValue, interface: "org.navd.Test1", member: "Note")
        try note.append([.string("first")])
        note.noReplyExpected = true
        let noteSerial = try fixture.client.send(note)
        let failing = try Message.methodCall(destination: testBusName, path: testPath.rawValue, interface: "org.navd.Test1", member: "Nope")
        failing.noReplyExpected = true
        let failingSerial = try fixture.client.send(failing)
        // A normal call after them: its reply comes after any reply to the first two would.
        #expect(try fixture.call("Add", [.int32(1), .int32(2)]) == [.int32(3)])
        let stray = fixture.client.waitForMessage(timeout: 0.3) { [noteSerial, failingSerial].contains($0.replySerial) }
        #expect(stray == nil)
        #expect(try fixture.loop.perform { self.fixture.state.notes } == ["first"])
    }

    @Test func pipelinedCallsGetExactlyOneReplyEachInOrder() throws {
        var serials: [UInt32] = []
        for index in 0..<300 {
            let call = try Message.methodCall(destination: testBusName, path: testPath.rawValue, interface: "org.navd.Test1", member: "Add")
            try call.append([.int32(Int32(index)), .int32(0)])
            serials.append(try fixture.client.send(call))
        }
        fixture.client.flush()
        var replies: [UInt32: [DBusValue]] = [:]
        var order: [UInt32] = []
        while replies.count < serials.count {
            guard let reply = fixture.client.waitForMessage(timeout: 10, matching: { $0.replySerial != 0 }) else { break }
            #expect(replies[reply.replySerial] == nil, "one reply per call")
            #expect(reply.kind == .methodReturn, "\(String(describing: reply.bodyError))")
            replies[reply.replySerial] = try reply.body()
            order.append(reply.replySerial)
        }
        #expect(order == serials)
        #expect(serials.enumerated().allSatisfy { replies[$0.element] == [.int32(Int32($0.offset))] })
        #expect(fixture.client.waitForMessage(timeout: 0.2) { $0.replySerial != 0 } == nil)
    }

    @Test func propertiesGetGetAllAndSet() throws {
        let properties = "org.freedesktop.DBus.Properties"
        #expect(try fixture.call("Get", [.string("org.navd.Test1"), .string("Revision")], interface: properties) == [.variant(.uint64(1))])
        #expect(try fixture.call("Get", [.string(""), .string("Label")], interface: properties) == [.variant(.string("initial"))])
        let all = try fixture.call("GetAll", [.string("org.navd.Test1")], interface: properties)
        #expect(all == [.vardict([("Revision", .uint64(1)), ("Label", .string("initial")), ("Tags", .stringArray(["a", "b"]))])])
        #expect(try fixture.call("Set", [.string("org.navd.Test1"), .string("Label"), .variant(.string("new"))], interface: properties) == [])
        #expect(try fixture.loop.perform { self.fixture.state.label } == "new")
        #expect(fixture.error("Set", [.string("org.navd.Test1"), .string("Revision"), .variant(.uint64(5))], interface: properties)?.name
            == DBusErrorName.propertyReadOnly)
        #expect(fixture.error("Set", [.string("org.navd.Test1"), .string("Label"), .variant(.int32(5))], interface: properties)?.name
            == DBusErrorName.invalidArgs)
        #expect(fixture.error("Get", [.string("org.navd.Test1"), .string("Missing")], interface: properties)?.name
            == DBusErrorName.unknownProperty)
        #expect(fixture.error("GetAll", [.string("org.navd.Missing")], interface: properties)?.name == DBusErrorName.unknownInterface)
    }

    @Test func peerAnswersPingAndMachineID() throws {
        #expect(try fixture.call("Ping", interface: "org.freedesktop.DBus.Peer") == [])
        let id = try fixture.call("GetMachineId", interface: "org.freedesktop.DBus.Peer").first?.stringValue
        #expect(id?.count == 32)
    }

    @Test func signalsAndPropertiesChangedAreCheckedAndDelivered() throws {
        try fixture.client.addMatch(MatchRule.signals(sender: testBusName, path: testPath.rawValue))
        try fixture.loop.perform {
            let server = self.fixture.loop.server
            #expect(throws: DBusError.self) { try server.signal(testPath, interface: "org.navd.Test1", name: "Changed", [.string("x")]) }
            #expect(throws: DBusError.self) { try server.signal(testPath, interface: "org.navd.Test1", name: "Unknown", []) }
            #expect(throws: DBusError.self) {
                try server.propertiesChanged(testPath, interface: "org.navd.Test1", changed: [("Revision", .int32(1))])
            }
            try self.fixture.loop.connection.send(
                try server.signal(testPath, interface: "org.navd.Test1", name: "Changed", [.uint64(2), .string("push")]))
            try self.fixture.loop.connection.send(
                try server.propertiesChanged(testPath, interface: "org.navd.Test1", changed: [("Revision", .uint64(2))], invalidated: ["Tags"]))
        }
        let changed = try #require(fixture.client.waitForMessage { $0.member == "Changed" })
        #expect(try changed.body() == [.uint64(2), .string("push")])
        #expect(changed.interface == "org.navd.Test1")
        let properties = try #require(fixture.client.waitForMessage { $0.member == "PropertiesChanged" })
        #expect(try properties.body() == [.string("org.navd.Test1"), .vardict([("Revision", .uint64(2))]), .stringArray(["Tags"])])
    }

    @Test func aBatchArrivesWholeAndInOrder() throws {
        try fixture.client.addMatch(MatchRule.signals(sender: testBusName, path: testPath.rawValue))
        try fixture.loop.perform {
            let server = self.fixture.loop.server
            func changed(_ revision: UInt64) throws -> MarshalledMessage {
                try server.marshalledSignal(testPath, interface: "org.navd.Test1", name: "Changed", [.uint64(revision), .string("push")])
            }
            // Marshalled messages around one that goes through libdbus.
            try self.fixture.loop.connection.send([
                .marshalled(try changed(1)),
                .message(try server.signal(testPath, interface: "org.navd.Test1", name: "Changed", [.uint64(2), .string("push")])),
                .marshalled(try changed(3)),
                .marshalled(try changed(4)),
                .marshalled(try server.marshalledPropertiesChanged(testPath, interface: "org.navd.Test1", changed: [("Revision", .uint64(4))])),
            ])
        }
        var revisions: [DBusValue] = []
        for _ in 0..<4 {
            let signal = try #require(fixture.client.waitForMessage { $0.member == "Changed" })
            revisions.append(try signal.body()[0])
        }
        #expect(revisions == [.uint64(1), .uint64(2), .uint64(3), .uint64(4)])
        let properties = try #require(fixture.client.waitForMessage { $0.member == "PropertiesChanged" })
        #expect(try properties.body() == [.string("org.navd.Test1"), .vardict([("Revision", .uint64(4))]), .stringArray([])])
    }

    @Test func introspectionListsEveryMemberWithArgumentNames() throws {
        let xml = try #require(try fixture.call("Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.stringValue)
        let parsed = try IntrospectionDocument(xml)
        let methods = parsed.members["org.navd.Test1"]?.filter { $0.kind == "method" } ?? []
        #expect(methods.map(\.name) == testInterface.methods.map(\.name))
        for method in testInterface.methods {
            let found = methods.first { $0.name == method.name }
            #expect(found?.arguments == (method.inArguments + method.outArguments).map(\.name))
        }
        #expect(parsed.members["org.navd.Test1"]?.contains { $0.kind == "signal" && $0.name == "Changed" && $0.arguments == ["revision", "cause"] } == true)
        #expect(parsed.members["org.navd.Test1"]?.filter { $0.kind == "property" }.map(\.name) == ["Revision", "Label", "Tags"])
        #expect(parsed.members.keys.contains("org.freedesktop.DBus.Properties"))
        #expect(parsed.children == ["child"])
        #expect(xml.contains("<!-- Adds two numbers - - carefully. -->"))
        #expect(xml.contains("EmitsChangedSignal"))
    }

    @Test func ancestorPathsListTheirChildren() throws {
        for (path, child) in [("/", "org"), ("/org", "navd"), ("/org/navd", "Test1")] {
            let xml = try #require(try fixture.call("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: path).first?.stringValue)
            let parsed = try IntrospectionDocument(xml)
            #expect(parsed.children == [child], "\(path)")
            #expect(parsed.members["org.navd.Test1"] == nil)
        }
        #expect(fixture.error("Add", [.int32(1), .int32(2)], path: "/org")?.name == DBusErrorName.unknownInterface)
    }
}

