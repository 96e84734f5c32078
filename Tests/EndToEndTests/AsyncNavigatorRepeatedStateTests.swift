import NavdClient
import TestSupport
import Testing

/// The update sequence yielded a start-up state twice when navd's start-up signal came twice at the same
/// revision (a start-up signal is shown whatever its revision): a view redrew what it had just drawn. The
/// follow rules leave out a state identical to the one shown last; the same state with another cause still comes.
@Suite("AsyncNavigator and a repeated state", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct AsyncNavigatorRepeatedStateTests {
    typealias Peer = NavwatchScriptedNavigator

    @Test("a start-up signal repeated at the same revision yields its state once")
    func repeatedStartupSignal() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try Peer(bus: bus, state: Peer.rainbow(3, ["orange"]))
        defer { peer.stop() }
        let navigator = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        #expect(try await updates.next() == .state(StateChange(cause: "state", state: Peer.rainbow(3, ["orange"]))))
        try peer.emit("restore", Peer.rainbow(3, ["orange"]))
        try peer.emit("restore", Peer.rainbow(3, ["orange"]))
        try peer.emit("push", Peer.rainbow(4, ["orange", "green"]))
        #expect(try await updates.next() == .state(StateChange(cause: "restore", state: Peer.rainbow(3, ["orange"]))))
        #expect(try await updates.next() == .state(StateChange(cause: "push", state: Peer.rainbow(4, ["orange", "green"]))))
    }
}
