import DBus
import TestSupport
import Testing

/// `Connection.callPipelined`: every call is sent before any reply is awaited, and each reply (or error) comes
/// back in the order of the calls, as `call` would give it. The bus daemon itself answers them.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
final class PipelinedCallTests {
    let peers: TwoPeers

    init() throws { peers = try TwoPeers() }

    func getNameOwner(_ name: String) throws -> Message {
        let message = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner")
        try message.append([.string(name)])
        return message
    }

    @Test func repliesAndErrorsComeBackInTheOrderOfTheCalls() throws {
        let connection = peers.sender
        let answers = try connection.callPipelined([
            try getNameOwner(connection.uniqueName), try getNameOwner("org.navd.Nobody"), try getNameOwner(peers.receiver.uniqueName),
        ])
        #expect(answers.count == 3)
        #expect(try answers[0].get().body().first?.stringValue == connection.uniqueName)
        guard case .failure(let error) = answers[1] else {
            Issue.record("a name without an owner was answered: \(answers[1])")
            return
        }
        #expect(error.name == DBusErrorName.nameHasNoOwner, "\(error)")
        #expect(try answers[2].get().body().first?.stringValue == peers.receiver.uniqueName)
        // The connection goes on as before: a blocking call after them is answered.
        #expect(try connection.nameOwner(connection.uniqueName) == connection.uniqueName)
    }

    @Test func aCallNobodyAnswersEndsAsNoReply() throws {
        // The receiver owns a name but never reads its messages: the call to it times out.
        try peers.receiver.requestName("org.navd.Silent")
        let silent = try Message.methodCall(destination: "org.navd.Silent", path: "/org/navd/Silent", interface: "org.navd.Silent", member: "Ping")
        let answers = try peers.sender.callPipelined([silent, try getNameOwner(peers.sender.uniqueName)], timeoutMilliseconds: 300)
        guard case .failure(let error) = answers[0] else {
            Issue.record("an unanswered call was answered: \(answers[0])")
            return
        }
        #expect(error.name == DBusErrorName.noReply, "\(error)")
        #expect(try answers[1].get().body().first?.stringValue == peers.sender.uniqueName)
    }

    @Test func aClosedConnectionThrows() throws {
        let connection = try Connection(.address(peers.bus.address))
        connection.close()
        #expect(throws: DBusError.self) { try connection.callPipelined([try self.getNameOwner(":1.1")]) }
    }
}
