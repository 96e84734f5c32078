import DBus
import Foundation
import Testing
import TestSupport
@testable import NavdService

#if canImport(Glibc)
import Glibc
#endif

/// The caller registry on a real private bus: what the bus says about a connection, asked once,
/// forgotten when the connection leaves, and never more than its capacity however many come and go.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct CallerRegistryTests {
    /// Serves `server`'s messages into `registry` until `done` holds or 20 s pass; returns the
    /// calls handed back by answers.
    @discardableResult
    func serve(_ server: Connection, _ registry: CallerRegistry, until done: (Int) -> Bool) -> Int {
        var answered = 0
        let deadline = MonotonicClock.milliseconds() + 20_000
        while !done(answered), MonotonicClock.milliseconds() < deadline {
            guard let message = server.popMessage() else {
                _ = server.waitForMessages(timeoutMilliseconds: 200)
                continue
            }
            if message.kind == .methodCall {
                _ = registry.lookUp(message, sender: message.sender)
            } else if let parked = registry.answer(message) {
                answered += parked.count
            } else if let change = message.nameOwnerChange {
                registry.forget(change)
            }
        }
        return answered
    }

    /// A private bus, the server's connection on it and a registry of that connection's callers
    /// holding at most `capacity` (the registry's default when nil); nil, with the reason printed, where
    /// dbus-daemon is not installed.
    func registryOnPrivateBus(capacity: Int? = nil) throws -> (bus: PrivateBus, server: Connection, registry: CallerRegistry)? {
        guard PrivateBus.isAvailable else {
            print("skipping: dbus-daemon is not installed")
            return nil
        }
        let bus = try PrivateBus()
        let server = try Connection(.address(bus.address))
        let registry = capacity.map { CallerRegistry(connection: server, capacity: $0) } ?? CallerRegistry(connection: server)
        return (bus, server, registry)
    }

    func call(_ client: Connection, to server: Connection) throws {
        try client.send(try Message.methodCall(destination: server.uniqueName, path: "/test", interface: "org.example.Test", member: "Hello"))
    }

    @Test func theBusDescribesTheCallerOnceAndLaterCallsDoNotWait() throws {
        guard let fixture = try registryOnPrivateBus() else { return }
        let (bus, server, registry) = fixture
        let client = try Connection(.address(bus.address))
        for _ in 0..<3 { try call(client, to: server) }
        let answered = serve(server, registry) { $0 >= 3 }
        #expect(answered == 3, "the three calls waited for one answer and came back in order")
        guard case .known(let identity)? = registry.known(client.uniqueName) else {
            Issue.record("the bus did not describe the client")
            return
        }
        #expect(identity.uid == getuid())
        #expect(identity.pid == UInt32(getpid()))
        #expect(identity.groups.contains(getgid()))
        #expect(identity.command?.isEmpty == false)
        // A later call is answered from memory, without asking the bus again.
        try call(client, to: server)
        var later: Message?
        let deadline = MonotonicClock.milliseconds() + 10_000
        while later == nil, MonotonicClock.milliseconds() < deadline {
            if let message = server.popMessage(), message.kind == .methodCall { later = message } else { _ = server.waitForMessages(timeoutMilliseconds: 200) }
        }
        guard let later else {
            Issue.record("the later call did not arrive")
            return
        }
        if case .known(let again) = registry.lookUp(later, sender: later.sender) {
            #expect(again == identity)
        } else {
            Issue.record("a known caller's later call was parked")
        }
        #expect(registry.count == 1)
    }

    @Test func thousandsOfConnectionsComingAndGoingLeaveNothingBehind() throws {
        guard let fixture = try registryOnPrivateBus(capacity: 64) else { return }
        let (bus, server, registry) = fixture
        var largest = 0
        for _ in 0..<20 {
            var clients: [Connection] = []
            for _ in 0..<100 {
                let client = try Connection(.address(bus.address))
                try call(client, to: server)
                clients.append(client)
            }
            let answered = serve(server, registry) { answered in
                largest = max(largest, registry.count)
                return answered >= 100
            }
            #expect(answered == 100)
            #expect(registry.count <= 64, "answered connections beyond the capacity are forgotten, oldest first")
            for client in clients { client.close() }
        }
        serve(server, registry) { _ in registry.count == 0 }
        #expect(registry.count == 0, "2,000 connections gone, none remembered")
        #expect(largest <= 100 + 64, "only connections being asked about go past the capacity")
    }

    /// Regression: the order in which names were first seen kept every departed caller's name until
    /// it held twice the capacity (8,256 names at the default, about 27 bytes of navd's memory per
    /// caller that had come and gone).
    @Test func callersThatComeAndGoOneAtATimeLeaveNotEvenTheirNames() throws {
        guard let fixture = try registryOnPrivateBus(capacity: 4096) else { return }
        let (bus, server, registry) = fixture
        var longest = 0
        for _ in 0..<300 {
            let client = try Connection(.address(bus.address))
            try call(client, to: server)
            #expect(serve(server, registry) { $0 >= 1 } == 1)
            client.close()
            serve(server, registry) { _ in registry.count == 0 }
            longest = max(longest, registry.namesInOrder)
        }
        #expect(registry.count == 0)
        #expect(longest <= 2 * 1 + 64 + 1, "the order holds no more than the remembered names and its slack")
    }
}
