import DBus
import Foundation
import NavigatorProtocol
import Navigation
import TestSupport
import Testing
@testable import NavdService

/// The daemon itself, in process: calls queued before its loop starts are read as one batch.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct InProcessDaemonTests {
    @Test func pipelinedCallsAreCommittedTogetherThenAnsweredReplySignalReplySignalThenOnePropertiesChanged() throws {
        let navd = try InProcessDaemon("group")
        defer { navd.stop() }
        for _ in 0..<3 { try navd.send(.push, [.string("orange"), InProcessDaemon.noParams]) }
        try navd.settle()
        navd.start()
        let messages = try navd.receive(8)
        #expect(messages.map(\.label) == [
            "StackChanged", "reply", "StackChanged", "reply", "StackChanged", "reply", "StackChanged", "PropertiesChanged",
        ])
        let revisions = try messages.filter { $0.kind == .methodReturn }.map { try $0.body()[0].requiredUInt64("revision") }
        #expect(revisions == [2, 3, 4])
        let changed = try #require(try messages.last?.body()[1].stringKeyedPairs)
        #expect(changed.first { $0.0 == NavigatorProperty.revision.name }?.1 == .uint64(4))
        let journal = try #require(try navd.daemon.store?.load().journal)
        #expect(journal.map(\.revision) == [2, 3, 4])
        // Each row keeps the id counter after its change: every push handed out one more id.
        #expect(journal.last?.nextId == navd.daemon.coordinator.state.nextIdNumber)
        #expect(zip(journal, journal.dropFirst()).allSatisfy { $0.nextId + 1 == $1.nextId })
    }

    @Test func afterAFailedCommitEachCallIsAnsweredAsIfTheBatchRanAgainstTheRestoredState() throws {
        let navd = try InProcessDaemon("rollback")
        defer { navd.stop() }
        let store = try #require(navd.daemon.store)
        // A real refusal by SQLite: the connection may no longer write.
        try withStoreDatabase(store) { try $0.exec("PRAGMA query_only = 1") }
        let tab = navd.daemon.coordinator.selectedTab
        try navd.send(.push, [.string("orange"), InProcessDaemon.noParams])  // changes the tree: StorageFailed
        try navd.send(.pop)  // popped orange in memory; against the restored state it is AtRoot
        try navd.send(.selectTab, [.string(tab)])  // a no-op: keeps its answer
        try navd.settle()
        navd.start()
        let messages = try navd.receive(4)
        #expect(messages.map(\.label) == ["StackChanged", "error:StorageFailed", "error:AtRoot", "reply"])
        #expect(try messages[3].body()[0].requiredUInt64("revision") == 1)
        try navd.send(.getState)
        let state = try navd.receive(1)
        #expect(state.map(\.label) == ["reply"], "no StackChanged or PropertiesChanged for the refused batch")
        #expect(try state[0].body()[0].requiredUInt64("revision") == 1)
        #expect(navd.daemon.coordinator.revision == 1)
    }

    /// The next method call the daemon's connection reads, `method` sent by the test's client, taken from the bus
    /// in the test's own hands; what comes before it (the bus's word on the caller) is processed as the loop would.
    func received(_ navd: InProcessDaemon, _ method: NavigatorMethod, _ arguments: [DBusValue] = []) throws -> Message? {
        try navd.send(method, arguments)
        let deadline = MonotonicClock.milliseconds() + 20_000
        while MonotonicClock.milliseconds() < deadline {
            guard let message = navd.daemon.connection.popMessage() else {
                _ = navd.daemon.connection.waitForMessages(timeoutMilliseconds: 200)
                continue
            }
            if message.kind == .methodCall { return message }
            navd.daemon.process(message)
        }
        return nil
    }

    @Test func oneHandleAnswersReadsChangesAndReloadAsValues() throws {
        let navd = try InProcessDaemon("handle")
        defer { navd.stop() }
        let daemon = navd.daemon
        // The first call from a connection waits for the bus to say who sent it; from then on calls are handled at once.
        guard case .none = daemon.handle(try #require(try received(navd, .getState))) else {
            Issue.record("the first call from an unknown caller was not parked")
            return
        }
        let deadline = MonotonicClock.milliseconds() + 20_000
        while daemon.callers.known(navd.client.uniqueName) == nil, MonotonicClock.milliseconds() < deadline {
            if let message = daemon.connection.popMessage() { daemon.process(message) } else { _ = daemon.connection.waitForMessages(timeoutMilliseconds: 200) }
        }
        // A change comes back as a pending call: its reply, its change and its journal record; nothing is durable yet.
        guard case .change(let push) = daemon.handle(try #require(try received(navd, .push, [.string("orange"), InProcessDaemon.noParams]))) else {
            Issue.record("Push did not come back as a change")
            return
        }
        #expect(push.change?.revision == 2)
        #expect(push.record?.revision == 2)
        #expect(push.reply != nil && push.reply?.errorName == nil)
        #expect(try daemon.store?.load().journal.isEmpty == true)
        daemon.take(.change(push))
        #expect(daemon.batch.count == 1)
        // A read comes back as its answer, made after the batch before it was committed.
        guard case .answer(let state?) = daemon.handle(try #require(try received(navd, .getState))) else {
            Issue.record("GetState did not come back as an answer")
            return
        }
        #expect(state.errorName == nil)
        #expect(daemon.batch.isEmpty)
        #expect(try daemon.store?.load().journal.map(\.revision) == [2])
        // Reload comes back as the reload to queue, after the same checks as every call.
        guard case .reload(let target, _) = daemon.handle(try #require(try received(navd, .reload))) else {
            Issue.record("Reload did not come back as a reload")
            return
        }
        #expect(target == nil, "the default object reloads every route file")
        // A refused change keeps its place in the batch, so that answers keep the order of the calls.
        guard case .change(let popped) = daemon.handle(try #require(try received(navd, .popToRoot))),
              case .change(let refused) = daemon.handle(try #require(try received(navd, .pop)))
        else {
            Issue.record("a change did not come back as a change")
            return
        }
        #expect(popped.change != nil)
        #expect(refused.change == nil && refused.reply?.errorName == NavigatorErrorName(.atRoot).fullName)
        // The contract's methods are not in the object server's dispatch table: `handle` is the only way in.
        let direct = daemon.server.handle(try #require(try received(navd, .getState)))
        #expect(direct?.errorName == DBusErrorName.failed)
    }

    @Test func aSignalHandlerStopsTheDaemonThroughPlainValuesOnly() throws {
        // The handler may neither retain nor release: the stop request holds no reference.
        #expect(_isPOD(LoopRequest.self))
        let navd = try InProcessDaemon("signal")
        defer { navd.stop() }
        signalStop = navd.daemon.stopRequest
        let previous = signal(SIGUSR2) { _ in signalStop?.request() }
        defer { signal(SIGUSR2, previous) }
        navd.start()
        _ = try navd.receive(1)
        kill(getpid(), SIGUSR2)
        #expect(navd.waitForExit(seconds: 30))
    }
}

nonisolated(unsafe) private var signalStop: LoopRequest?

/// Handlers and decoders refuse a value of the wrong shape by name instead of reading it as "" or dropping it.
@Suite struct MalformedArgumentRegressionTests {
    func refusal(_ body: () throws(DBusError) -> Void) -> DBusError? {
        do { try body() } catch { return error }
        return nil
    }

    @Test func paramsThatAreNotADictionaryAreRefusedNotReadAsEmpty() {
        let error = refusal { () throws(DBusError) in _ = try InputValue.params(dbusValue: .string("id=1")) }
        #expect(error?.name == DBusErrorName.invalidArgs)
        #expect(error?.message.contains("params a{sv}") == true)
    }

    @Test func aMalformedScreenIsRefusedNotDropped() {
        let screens = DBusValue.array(element: WireSignature.namedDictionary, [
            .structure([.string("red"), InProcessDaemon.noParams]), .structure([.int32(7)]),
        ])
        let error = refusal { () throws(DBusError) in _ = try ScreenRequest.screens(dbusValue: screens) }
        #expect(error?.name == DBusErrorName.invalidArgs)
        #expect(error?.message.hasPrefix("screen 1:") == true, "\(String(describing: error))")
    }

    @Test func aMalformedOpIsRefusedNotDropped() {
        let ops = DBusValue.array(element: WireSignature.namedDictionary, [.structure([.string("pop")])])
        let error = refusal { () throws(DBusError) in _ = try RawOperation.operations(dbusValue: ops) }
        #expect(error?.message.hasPrefix("op 0:") == true, "\(String(describing: error))")
    }

    @Test func aRouteThatIsNotAStringIsRefusedByItsNameNotReadAsEmpty() {
        let error = refusal { () throws(DBusError) in _ = try DBusValue.int32(3).requiredString("route") }
        #expect(error?.name == DBusErrorName.invalidArgs)
        #expect(error?.message.contains("route (s)") == true)
    }

    @Test func thePushHandlerRefusesMalformedParamsByName() throws {
        let navd = try InProcessDaemon("handler")
        defer { navd.stop() }
        let call = try Navigator.call(.push, [.string("orange"), InProcessDaemon.noParams])
        let malformed = MethodCall(message: call, arguments: [.string("orange"), .string("not params")])
        let error = refusal { () throws(DBusError) in _ = try navd.daemon.answer(.push, malformed, on: navd.daemon.main) }
        #expect(error?.name == DBusErrorName.invalidArgs)
        #expect(error?.message.contains("params a{sv}") == true, "\(String(describing: error))")
        #expect(navd.daemon.coordinator.revision == 1, "nothing changed")
    }
}
