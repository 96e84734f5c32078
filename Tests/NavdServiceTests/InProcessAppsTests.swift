import DBus
import Foundation
import GRDB
import Logging
import NavigatorProtocol
import Navigation
import TestSupport
import Testing
@testable import NavdService

/// A `NavigatorDaemon` with two apps (`one`, `two`) beside the default navigator, on a private bus
/// inside the test process; calls queued before its loop starts are read as one batch.
final class InProcessAppsDaemon: @unchecked Sendable {
    let bus: PrivateBus
    let daemon: NavigatorDaemon
    let client: Connection
    let directory: String
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    /// The route file both apps start from: a single stack, home → a → b.
    static let routeFile = """
        root: home
        routes:
          home: {}
          a: {}
          b: {}

        """

    init(_ name: String) throws {
        bus = try PrivateBus()
        directory = NSTemporaryDirectory() + "navd-inprocess-apps-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        let routes = directory + "/routes"
        try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
        for app in ["one", "two"] {
            try Self.routeFile.write(toFile: routes + "/\(app).yaml", atomically: true, encoding: .utf8)
        }
        let options = ServiceOptions(
            bus: .address(bus.address), graph: .demo, stateDirectory: directory + "/state", appsDirectory: routes)
        daemon = try NavigatorDaemon(options: options, logger: Logger(label: "navd-test"))
        client = try Connection(.address(bus.address))
        try client.addMatch(.everyNavdSignal)
    }

    /// The object path of `app` (nil: the default navigator).
    static func path(_ app: String?) -> ObjectPath { Navigator.objectPath(app: app)! }

    /// Sends `method` to `app`'s object without waiting; returns the call's serial.
    @discardableResult
    func send(_ method: NavigatorMethod, _ arguments: [DBusValue] = [], to app: String?) throws -> UInt32 {
        try client.send(Navigator.call(method, arguments, path: Self.path(app)))
    }

    /// Waits until the bus has handled everything this client sent.
    func settle() throws {
        _ = try client.nameOwner(Navigator.busName)
    }

    func start() {
        started = true
        Thread.detachNewThread { [self] in
            _ = daemon.run()
            finished.signal()
        }
    }

    /// The next `count` replies, errors and navd signals, each as `label@app` (`main` for the
    /// default navigator), in order, with the messages.
    func receive(_ count: Int) throws -> [(label: String, message: Message)] {
        var messages: [(String, Message)] = []
        let deadline = MonotonicClock.milliseconds() + 30_000
        while messages.count < count {
            if let message = client.popMessage() {
                if message.kind == .methodReturn || message.kind == .error {
                    messages.append((message.label, message))
                } else if message.kind == .signal, let path = message.path, path.hasPrefix(Navigator.objectPath.rawValue) {
                    messages.append(("\(message.label)@\(Navigator.appName(ofPath: path) ?? "main")", message))
                }
                continue
            }
            guard MonotonicClock.milliseconds() < deadline else {
                throw HarnessError("only \(messages.count) of \(count) messages arrived: \(messages.map(\.0))")
            }
            _ = client.waitForMessages(timeoutMilliseconds: 1000)
        }
        return messages
    }

    /// The revisions in the journal of `app`'s store (nil: the default navigator's).
    func journal(_ app: String?) throws -> [UInt64] {
        let navigator = app.map { daemon.apps[$0] } ?? daemon.main
        return try navigator?.store?.load().journal.map(\.revision) ?? []
    }

    func stop() {
        if started {
            daemon.requestStop()
            finished.wait()
        }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Group commit across apps: one batch that touches two apps (and the default navigator) is
/// answered call by call once each app's change is durable, and a storage failure in one app's
/// store rolls back only that app's calls.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct InProcessAppsTests {
    static var noParams: DBusValue { [String: ParamValue]().dbusValue }
    static let startUp = ["StackChanged@main", "StackChanged@one", "StackChanged@two"]

    @Test func aBatchAcrossTwoAppsAnswersEachCallOnceItsAppsChangeIsDurable() throws {
        let navd = try InProcessAppsDaemon("group")
        defer { navd.stop() }
        try navd.send(.push, [.string("a"), Self.noParams], to: "one")
        try navd.send(.push, [.string("a"), Self.noParams], to: "two")
        try navd.send(.push, [.string("b"), Self.noParams], to: "one")
        try navd.send(.push, [.string("orange"), Self.noParams], to: nil)
        try navd.send(.pop, to: "two")
        try navd.settle()
        navd.start()
        let messages = try navd.receive(3 + 10 + 3)
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
        let navd = try InProcessAppsDaemon("rollback")
        defer { navd.stop() }
        let store = try #require(navd.daemon.apps["one"]?.store)
        // A real refusal by SQLite: app one's connection may no longer write.
        _ = try withStoreDatabase(store) { try $0.execute(sql: "PRAGMA query_only = 1") }
        try navd.send(.push, [.string("a"), Self.noParams], to: "one")   // StorageFailed
        try navd.send(.push, [.string("a"), Self.noParams], to: "two")   // 2
        try navd.send(.pop, to: "one")                                   // against the restored state: AtRoot
        try navd.send(.push, [.string("b"), Self.noParams], to: "two")   // 3
        try navd.send(.popToRoot, to: "one")                             // a no-op: keeps its answer (1)
        try navd.send(.push, [.string("orange"), Self.noParams], to: nil) // 2
        try navd.settle()
        navd.start()
        let messages = try navd.receive(3 + 9 + 2)
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
        let state = try navd.receive(1)
        #expect(state.map(\.label) == ["reply"])
        #expect(try state[0].message.body()[0].requiredUInt64("revision") == 1)
    }
}
