import DBus
import Foundation
import NavigatorProtocol
import Navigation
import TestSupport
import Testing
@testable import NavdService

/// Group commit across apps: one batch that touches two apps (and the default navigator) is
/// answered call by call once each app's change is durable, and a storage failure in one app's
/// store rolls back only that app's calls.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct InProcessAppsTests {
    /// Two apps, `one` and `two`, from the same route file: a single stack, home → a → b.
    static let apps = Dictionary(uniqueKeysWithValues: ["one", "two"].map { ($0, "root: home\nroutes:\n  home: {}\n  a: {}\n  b: {}\n") })
    static let startUp = ["StackChanged@main", "StackChanged@one", "StackChanged@two"]

    @Test func aBatchAcrossTwoAppsAnswersEachCallOnceItsAppsChangeIsDurable() throws {
        let navd = try InProcessDaemon("apps-group", apps: Self.apps)
        defer { navd.stop() }
        try navd.send(.push, [.string("a"), InProcessDaemon.noParams], to: "one")
        try navd.send(.push, [.string("a"), InProcessDaemon.noParams], to: "two")
        try navd.send(.push, [.string("b"), InProcessDaemon.noParams], to: "one")
        try navd.send(.push, [.string("orange"), InProcessDaemon.noParams], to: nil)
        try navd.send(.pop, to: "two")
        try navd.settle()
        navd.start()
        let messages = try navd.receiveLabeled(3 + 10 + 3)
        #expect(messages.map(\.label) == Self.startUp + [
            "reply", "StackChanged@one", "reply", "StackChanged@two", "reply", "StackChanged@one",
            "reply", "StackChanged@main", "reply", "StackChanged@two",
            "PropertiesChanged@one", "PropertiesChanged@two", "PropertiesChanged@main",
        ])
        let revisions = try messages.filter { $0.message.kind == .methodReturn }.map { try $0.message.body()[0].requiredUInt64("revision") }
        #expect(revisions == [2, 2, 3, 2, 3], "each app counts its own revisions")
        // Every answered change is in its own app's store, and only there.
        #expect(try navd.journal("one") == [2, 3])
        #expect(try navd.journal("two") == [2, 3])
        #expect(try navd.journal(nil) == [2])
        #expect(navd.daemon.apps["one"]?.coordinator.path.map(\.route) == ["home", "a", "b"])
        #expect(navd.daemon.apps["two"]?.coordinator.path.map(\.route) == ["home"])
        let oneChanged = try #require(try messages.first { $0.label == "PropertiesChanged@one" }?.message.body()[1].stringKeyedPairs)
        #expect(oneChanged.first { $0.0 == NavigatorProperty.revision.name }?.1 == .uint64(3))
    }

    @Test func aStorageFailureInOneAppRollsBackOnlyThatAppsCallsOfTheBatch() throws {
        let navd = try InProcessDaemon("apps-rollback", apps: Self.apps)
        defer { navd.stop() }
        let store = try #require(navd.daemon.apps["one"]?.store)
        // A real refusal by SQLite: app one's connection may no longer write.
        try withStoreDatabase(store) { try $0.exec("PRAGMA query_only = 1") }
        try navd.send(.push, [.string("a"), InProcessDaemon.noParams], to: "one")   // StorageFailed
        try navd.send(.push, [.string("a"), InProcessDaemon.noParams], to: "two")   // 2
        try navd.send(.pop, to: "one")                                   // against the restored state: AtRoot
        try navd.send(.push, [.string("b"), InProcessDaemon.noParams], to: "two")   // 3
        try navd.send(.popToRoot, to: "one")                             // a no-op: keeps its answer (1)
        try navd.send(.push, [.string("orange"), InProcessDaemon.noParams], to: nil) // 2
        try navd.settle()
        navd.start()
        let messages = try navd.receiveLabeled(3 + 9 + 2)
        #expect(messages.map(\.label) == Self.startUp + [
            "error:StorageFailed", "reply", "StackChanged@two", "error:AtRoot", "reply", "StackChanged@two", "reply",
            "reply", "StackChanged@main", "PropertiesChanged@two", "PropertiesChanged@main",
        ])
        let replies = try messages.filter { $0.message.kind == .methodReturn }.map { try $0.message.body()[0].requiredUInt64("revision") }
        #expect(replies == [2, 3, 1, 2])
        #expect(navd.daemon.apps["one"]?.coordinator.revision == 1, "app one is back at its last commit")
        #expect(navd.daemon.apps["one"]?.coordinator.path.map(\.route) == ["home"])
        #expect(try navd.journal("one") == [])
        #expect(try navd.journal("two") == [2, 3], "app two's calls of the same batch were committed")
        #expect(try navd.journal(nil) == [2])

        // Nothing further was announced for app one, and its state answers revision 1.
        try navd.send(.getState, to: "one")
        let state = try navd.receiveLabeled(1)
        #expect(state.map(\.label) == ["reply"])
        #expect(try state[0].message.body()[0].requiredUInt64("revision") == 1)
    }
}
