import DBus
import TestSupport
import Testing

/// The client proxy derived from the same declaration as the service.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
final class ObjectProxyTests {
    let fixture: ServiceFixture
    let proxy: ObjectProxy

    init() throws {
        fixture = try ServiceFixture()
        proxy = ObjectProxy(connection: fixture.client, destination: testBusName, path: testPath, interface: testInterface)
    }

    @Test func callsAreCheckedBothWays() async throws {
        #expect(try proxy.callBlocking("Add", [.int32(40), .int32(2)]) == [.int32(42)])
        #expect(try await proxy.call("Add", [.int32(1), .int32(2)]) == [.int32(3)])
        #expect(throws: DBusError.self) { try self.proxy.callBlocking("Add", [.int32(1)]) }
        #expect(throws: DBusError.self) { try self.proxy.callBlocking("Missing") }
        #expect(throws: DBusError(name: "org.navd.Test1.Error.Refused", message: "not today")) { try self.proxy.callBlocking("Refuse") }
        // A service answering with another type than declared is caught on the client too.
        var lying = testInterface
        lying.methods[0].outArguments = [ArgumentDeclaration("sum", "x")]
        let confused = ObjectProxy(connection: fixture.client, destination: testBusName, path: testPath, interface: lying)
        let error = try #require(throws: DBusError.self) { try confused.callBlocking("Add", [.int32(1), .int32(2)]) }
        #expect(error.message.contains("'i' where 'x' is declared"))
    }

    @Test func propertiesAreRead() throws {
        #expect(try proxy.property("Revision") == .uint64(1))
        #expect(try proxy.allProperties().map(\.0) == ["Revision", "Label", "Tags"])
        #expect(throws: DBusError.self) { try self.proxy.property("Missing") }
    }

    @Test func signalsAreMatchedAndDecoded() throws {
        try fixture.client.addMatch(proxy.signalRule("Changed"))
        try fixture.loop.perform {
            let server = self.fixture.loop.server
            try self.fixture.loop.connection.send(
                try server.signal(testPath, interface: "org.navd.Test1", name: "Changed", [.uint64(3), .string("pop")]))
        }
        let message = try #require(fixture.client.waitForMessage { self.proxy.decodeSignal($0) != nil })
        let decoded = try #require(proxy.decodeSignal(message))
        #expect(decoded.name == "Changed")
        #expect(decoded.values == [.uint64(3), .string("pop")])
    }
}
