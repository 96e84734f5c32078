import DBus
import Foundation
import NavigatorProtocol
import TestSupport
import Testing
@testable import NavdService

/// The reload queue (`docs/reliability.md#bounded-route-files`): `Reload` calls wait behind the reload under way, at most 16;
/// more are refused with `LimitsExceeded`; every call is answered, and a stop does not wait for a
/// parse that does not end. The parse is held up at a gate on its own thread, so the queue's
/// states are reached without depending on how fast a file parses.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct InProcessReloadQueueTests {
    static let route = "root: home\nroutes:\n  home: {}\n  a: {}\n"
    static let apps = ["one": route]

    /// Gives `one.yaml` other bytes (one more route), so that a reload has a file to parse.
    static func editApp(_ navd: InProcessDaemon, adding name: String) throws {
        try (route + "  \(name): {}\n").write(toFile: navd.directory + "/apps-routes/one.yaml", atomically: true, encoding: .utf8)
    }

    /// The next `count` replies and errors for the client, in order (signals skipped).
    static func answers(_ navd: InProcessDaemon, _ count: Int) throws -> [Message] {
        var answers: [Message] = []
        let deadline = MonotonicClock.milliseconds() + 30_000
        while answers.count < count {
            if let message = navd.client.popMessage() {
                if message.kind == .methodReturn || message.kind == .error { answers.append(message) }
                continue
            }
            guard MonotonicClock.milliseconds() < deadline else {
                throw HarnessError("only \(answers.count) of \(count) answers arrived: \(answers.map(\.label))")
            }
            _ = navd.client.waitForMessages(timeoutMilliseconds: 1000)
        }
        return answers
    }

    @Test func sixteenReloadCallsWaitBehindTheOneUnderWayAndMoreAreRefusedWithLimitsExceeded() throws {
        let navd = try InProcessDaemon("reload-queue", apps: Self.apps)
        defer { navd.stop() }
        let gate = DispatchSemaphore(value: 0)
        navd.daemon.beforeParsingReload = { gate.wait() }
        try Self.editApp(navd, adding: "b")
        let reloads = try (0..<20).map { index in try navd.send(.reload, to: index % 2 == 0 ? "one" : nil) }
        let state = try navd.send(.getState, to: "one")
        try navd.settle()
        navd.start()

        // The first reload parses (held at the gate), 16 wait, 3 are refused; GetState is answered meanwhile.
        let early = try Self.answers(navd, 4)
        #expect(early.map(\.replySerial) == Array(reloads[17...]) + [state])
        #expect(early.prefix(3).allSatisfy { $0.errorName == DBusErrorName.limitsExceeded }, "\(early.map(\.label))")
        let refusal = try #require(try early[0].body().first?.stringValue)
        #expect(refusal.contains("a reload is under way and 16 Reload calls wait"), "\(refusal)")
        #expect(early[3].kind == .methodReturn && early[3].errorName == nil, "GetState answered while the reload waits")

        gate.signal()
        let late = try Self.answers(navd, 17)
        #expect(late.map(\.replySerial) == Array(reloads[..<17]), "answered in order")
        #expect(late.allSatisfy { $0.kind == .methodReturn }, "\(late.map(\.label))")
        #expect(navd.daemon.apps["one"]?.coordinator.graph.routes["b"] != nil, "the edit was applied")
    }

    @Test func aStopAbandonsAReloadWhoseParseDoesNotEndAndAnswersEveryWaitingCall() throws {
        let navd = try InProcessDaemon("reload-stop", apps: Self.apps)
        let gate = DispatchSemaphore(value: 0)
        defer {
            gate.signal()   // lets the abandoned parse end (it wakes nothing)
            navd.stop()
        }
        navd.daemon.beforeParsingReload = { gate.wait() }
        navd.daemon.reloadStopWaitMilliseconds = 200
        try Self.editApp(navd, adding: "b")
        let reloads = try (0..<5).map { _ in try navd.send(.reload, to: "one") }
        try navd.send(.getState, to: "one")
        try navd.settle()
        navd.start()
        #expect(try Self.answers(navd, 1).first?.kind == .methodReturn, "GetState answered while the reload is under way")

        navd.daemon.requestStop()
        let answers = try Self.answers(navd, 5)
        #expect(answers.map(\.replySerial) == reloads)
        #expect(answers.allSatisfy { $0.errorName == DBusErrorName.failed }, "\(answers.map(\.label))")
        let message = try #require(try answers[0].body().first?.stringValue)
        #expect(message.contains("navd is stopping") && message.contains("nothing was reloaded"), "\(message)")
        #expect(navd.waitForExit(seconds: 30), "the loop returned without the parse")
        #expect(navd.daemon.apps["one"]?.coordinator.graph.routes["b"] == nil, "nothing of the abandoned reload was applied")
    }
}
