import DBus
import Foundation
import Synchronization
import TestSupport
import Testing

/// Connections: names, match rules, the loop primitives, timeouts and a lost bus.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
final class ConnectionTests {
    let peers: TwoPeers

    init() throws { peers = try TwoPeers() }

    @Test func connectingDescribesTheBus() throws {
        #expect(peers.sender.uniqueName.hasPrefix(":"))
        #expect(peers.sender.describedBus == peers.bus.address)
        #expect(peers.sender.isConnected)
        let missing = "unix:path=/nonexistent/navd-test-bus"
        let error = try #require(throws: DBusError.self) { try Connection(.address(missing)) }
        #expect(error.message.contains(missing), "\(error)")
    }

    @Test func requestingAnOwnedNameSaysWhoOwnsIt() throws {
        try peers.sender.requestName("org.navd.Conflict")
        try peers.sender.requestName("org.navd.Conflict")  // already ours: fine
        let error = try #require(throws: DBusError.self) { try peers.receiver.requestName("org.navd.Conflict") }
        #expect(error.name == DBusErrorName.nameAlreadyOwned)
        #expect(error.message == "name org.navd.Conflict is already owned by \(peers.sender.uniqueName) (pid \(getpid())) on \(peers.bus.address)")
        try peers.sender.releaseName("org.navd.Conflict")
        try peers.receiver.requestName("org.navd.Conflict")
        #expect(try peers.sender.nameOwner("org.navd.Conflict") == peers.receiver.uniqueName)
        #expect(try peers.sender.nameOwner("org.navd.Nobody") == nil)
        #expect(throws: DBusError.self) { try peers.sender.requestName("not a name") }
    }

    @Test func followingANameSeesItComeAndGo() throws {
        let watcher = peers.receiver
        #expect(try watcher.followNameOwner("org.navd.Followed") == nil)
        let service = try Connection(.address(peers.bus.address))
        try service.requestName("org.navd.Followed")
        let arrived = try #require(watcher.waitForMessage { $0.nameOwnerChange != nil }?.nameOwnerChange)
        #expect(arrived == NameOwnerChange(name: "org.navd.Followed", oldOwner: nil, newOwner: service.uniqueName))
        service.close()
        let left = try #require(watcher.waitForMessage { $0.nameOwnerChange != nil }?.nameOwnerChange)
        #expect(left == NameOwnerChange(name: "org.navd.Followed", oldOwner: service.uniqueName, newOwner: nil))
        try watcher.stopFollowingNameOwner("org.navd.Followed")
        // A peer's look-alike signal, sent straight to the watcher, is not taken for the bus'.
        let fake = try Message.signal(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        try fake.append([.string("org.navd.Followed"), .string(""), .string(":1.999")])
        try fake.setDestination(watcher.uniqueName)
        try peers.sender.send(fake)
        let received = try #require(watcher.waitForMessage { $0.member == "NameOwnerChanged" })
        #expect(received.sender == peers.sender.uniqueName)
        #expect(received.nameOwnerChange == nil)
    }

    @Test func wakeInterruptsAWait() async throws {
        let connection = peers.receiver
        _ = connection.waitForMessage(timeout: 0.2) { _ in false }  // drop NameAcquired
        #expect(connection.waitForMessages(timeoutMilliseconds: 50) == .timedOut)
        // A 10-minute wait: only the wake-up can end it within the test's time limit, so `.woken`
        // is the whole assertion (no timing is asserted: a loaded machine may start the task late).
        async let result = Task.detached { connection.waitForMessages(timeoutMilliseconds: 600_000) }.value
        try await Task.sleep(for: .milliseconds(100))
        connection.wake()
        #expect(await result == .woken)
        #expect(connection.waitForMessages(timeoutMilliseconds: 0) == .timedOut, "the wake-up was consumed")
        connection.waker.wake()
        #expect(connection.waitForMessages(timeoutMilliseconds: 5_000) == .woken)
    }

    @Test func messagesAlreadyBufferedAreNotSleptOn() throws {
        for index in 0..<3 {
            let signal = try Message.signal(path: "/org/navd/Test", interface: "org.navd.Test", member: "Tick")
            try signal.append([.uint32(UInt32(index))])
            let unicast = signal
            // A signal with a destination reaches that connection without a match rule.
            try Self.setDestination(unicast, peers.receiver.uniqueName)
            try peers.sender.send(unicast)
        }
        // The bus answers in order, so once these replies arrive the signals are ahead of them.
        _ = try peers.sender.nameOwner("org.freedesktop.DBus")
        _ = try peers.receiver.nameOwner("org.freedesktop.DBus")  // reads the signals into libdbus
        // A 10-minute wait: sleeping on the buffered messages would run into the test's time limit.
        #expect(peers.receiver.waitForMessages(timeoutMilliseconds: 600_000) == .messages)
        var ticks: [DBusValue] = []
        while let message = peers.receiver.popMessage() {
            if message.member == "Tick" { ticks += try message.body() }
        }
        #expect(ticks == [.uint32(0), .uint32(1), .uint32(2)])
    }

    @Test func callsTimeOutWithNoReply() async throws {
        let call = try Message.methodCall(destination: peers.receiver.uniqueName, path: "/", interface: "org.navd.Test", member: "Silent")
        let started = Date()
        let error = try #require(throws: DBusError.self) { try peers.sender.call(call, timeoutMilliseconds: 200) }
        #expect(error.name == DBusErrorName.noReply)
        // The 200 ms timeout was honoured rather than libdbus's 25 s default (100× slack: not a speed test).
        #expect(Date().timeIntervalSince(started) < 20)
        let asyncCall = try Message.methodCall(destination: peers.receiver.uniqueName, path: "/", interface: "org.navd.Test", member: "Silent")
        await #expect(throws: DBusError.self) { try await self.peers.sender.call(asyncCall, timeoutMilliseconds: 200) }
    }

    @Test func asyncCallsReturnReplies() async throws {
        let call = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames")
        let reply = try await peers.sender.call(call)
        let names = try reply.body().first?.arrayValues?.compactMap(\.stringValue) ?? []
        #expect(names.contains(peers.sender.uniqueName))
        let failing = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner")
        try failing.append([.string("org.navd.Nobody")])
        await #expect(throws: DBusError(name: DBusErrorName.nameHasNoOwner, message: "Could not get owner of name 'org.navd.Nobody': no such name")) {
            try await self.peers.sender.call(failing)
        }
    }

    @Test func aLostBusIsNoticedAndANewOneCanBeUsed() throws {
        let connection = peers.receiver
        peers.bus.stop()
        #expect(connection.waitForMessage(timeout: 10) { $0.isLocalDisconnect } != nil)
        #expect(!connection.isConnected)
        #expect(connection.waitForMessages(timeoutMilliseconds: 1_000) == .disconnected)
        let call = try Message.methodCall(destination: "org.freedesktop.DBus", path: "/", interface: nil, member: "GetId")
        #expect(throws: DBusError.self) { try connection.call(call) }
        #expect(throws: DBusError.self) { try connection.send(call) }

        let newBus = try PrivateBus()
        let reconnected = try Connection(.address(newBus.address))
        #expect(reconnected.isConnected)
        #expect(try reconnected.nameOwner("org.freedesktop.DBus") == "org.freedesktop.DBus")
    }

    @Test func closedConnectionsRefuseToSend() throws {
        let connection = try Connection(.address(peers.bus.address))
        connection.close()
        connection.close()
        #expect(!connection.isConnected)
        #expect(connection.popMessage() == nil)
        #expect(connection.waitForMessages(timeoutMilliseconds: 10) == .disconnected)
        let signal = try Message.signal(path: "/", interface: "org.navd.Test", member: "S")
        #expect(throws: DBusError(name: DBusErrorName.disconnected, message: "not connected to the \(peers.bus.address)")) {
            try connection.send(signal)
        }
    }

    @Test func theServiceLoopAnswersManyCallsQuickly() throws {
        let fixture = try ServiceFixture()
        let started = Date()
        for index in 0..<500 {
            #expect(try fixture.call("Add", [.int32(Int32(index)), .int32(1)]) == [.int32(Int32(index) + 1)])
        }
        let perCall = Date().timeIntervalSince(started) / 500
        let busStarted = Date()
        for _ in 0..<500 {
            let ping = try Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Peer", member: "Ping")
            _ = try fixture.client.call(ping)
        }
        let busPerCall = Date().timeIntervalSince(busStarted) / 500
        print("ServiceLoop round trip: \(Int(perCall * 1_000_000)) µs per call; the bus' own Ping: \(Int(busPerCall * 1_000_000)) µs")
        #expect(perCall < 0.01)
    }

    @Test func callsOnOtherThreadsGetTheirRepliesWhileALoopPops() async throws {
        let fixture = try ServiceFixture()
        let client = fixture.client
        try client.addMatch(MatchRule.signals(sender: testBusName))
        let stop = Mutex(false)
        let popped = Mutex(0)
        let loop = Thread {
            while !stop.withLock({ $0 }) {
                while client.popMessage() != nil { popped.withLock { $0 += 1 } }
                _ = client.waitForMessages(timeoutMilliseconds: 100)
            }
        }
        loop.start()
        defer { stop.withLock { $0 = true } }
        for index in 0..<100 {
            let call = try Message.methodCall(destination: testBusName, path: testPath.rawValue, interface: "org.navd.Test1", member: "Add")
            try call.append([.int32(Int32(index)), .int32(1)])
            let reply = index.isMultiple(of: 2)
                ? try client.callBlocking(call, timeoutMilliseconds: 5_000)
                : try await client.call(call, timeoutMilliseconds: 5_000)
            #expect(try reply.body() == [.int32(Int32(index) + 1)])
        }
        // Signals still reach the loop.
        try fixture.loop.perform {
            try self.peersSend(fixture)
        }
        let deadline = Date().addingTimeInterval(5)
        while popped.withLock({ $0 }) == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(popped.withLock { $0 } > 0)
    }

    private func peersSend(_ fixture: ServiceFixture) throws {
        let server = fixture.loop.server
        try fixture.loop.connection.send(try server.signal(testPath, interface: "org.navd.Test1", name: "Changed", [.uint64(9), .string("test")]))
    }

    private static func setDestination(_ message: Message, _ destination: String) throws {
        try message.setDestination(destination)
    }
}
