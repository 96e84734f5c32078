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
