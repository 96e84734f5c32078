import DBus
import Foundation
import Testing
import TestSupport

/// Restarts after SIGTERM and after `kill -9` in the middle of a burst: every answered revision
/// is there, nothing answered is lost, ids continue without reuse.
@Suite("navd durability", .serialized, .timeLimit(.minutes(3)))
struct NavdDurabilityTests {
    @Test func restartAfterSigtermKeepsTheTreeAndAnnouncesRestore() throws {
        let bus = try PrivateBus()
        let directory = NavdProcess.temporaryStateDirectory()
        let navd = try NavdProcess.started(bus: bus, stateDirectory: directory)
        let client = try Connection(.address(bus.address))
        let orange = try client.navigator("Push", [.string("orange"), .emptyParams])[1].stringValue!
        _ = try client.navigator("Present", [.string("modal"), .emptyParams, .string("sheet")])
        let before = try client.navigatorState()
        #expect(navd.stop() == 0)

        let watcher = try Connection(.address(bus.address))
        try watcher.subscribeToNavigator()
        try navd.start()
        let start = try #require(watcher.waitForMessage(timeout: 5) { $0.member == "StackChanged" })
        #expect(try start.body()[1].stringValue == "restore")
        #expect(try start.body()[0].uint64Value == before.revision)

        let after = try client.navigatorState()
        #expect(after.revision == before.revision)
        #expect(after.path == before.path)
        #expect(after.path[1].id == orange)
        let newId = try client.navigator("Push", [.string("blue"), .emptyParams])[1].stringValue!
        #expect(!before.path.map(\.id).contains(newId))
        #expect(try client.navigator("Undo")[0].uint64Value == before.revision + 2)
        #expect(try client.navigatorState().path == before.path)
    }

    @Test func killNineInTheMiddleOfABurstLosesNothingAnswered() throws {
        let bus = try PrivateBus()
        let directory = NavdProcess.temporaryStateDirectory()
        let navd = try NavdProcess.started(bus: bus, stateDirectory: directory)
        let answered = AnsweredChanges()
        let clients = 3
        navd.kill9(after: 0.4) {
            DispatchQueue.concurrentPerform(iterations: clients) { index in
                guard let connection = try? Connection(.address(bus.address)) else { return }
                var step = 0
                while true {
                    do {
                        if step % 2 == 1 {
                            let revision = try connection.navigator("Pop", timeoutMilliseconds: 2_000)[0].uint64Value!
                            answered.add(revision: revision, id: nil)
                        } else {
                            let out = try connection.navigator("Push", [.string(index == 0 ? "orange" : "teal"), .emptyParams], timeoutMilliseconds: 2_000)
                            answered.add(revision: out[0].uint64Value!, id: out[1].stringValue)
                        }
                    } catch let error as DBusError where error.name.hasSuffix("AtRoot") || error.name.hasSuffix("LimitExceeded") {
                    } catch {
                        return  // navd is gone
                    }
                    step += 1
                }
            }
        }
        #expect(answered.count > 10, "the burst answered only \(answered.count) calls before the kill")

        try navd.start()
        let client = try Connection(.address(bus.address))
        let state = try client.navigatorState()
        #expect(state.revision >= answered.maxRevision, "answered revision \(answered.maxRevision) lost; restored \(state.revision)")
        let history = try client.navigator("History", [.uint32(100_000)])[0].arrayValues ?? []
        let revisions = Set(history.compactMap { $0.structFields?[0].uint64Value })
        let oldest = revisions.min() ?? 0
        for revision in answered.revisions where revision >= oldest {
            #expect(revisions.contains(revision), "answered revision \(revision) missing from the history")
        }
        _ = try client.navigator("PopToRoot")
        let newId = try client.navigator("Push", [.string("blue"), .emptyParams])[1].stringValue!
        #expect(!answered.ids.contains(newId), "id \(newId) reused after the crash")
        print("durability: \(answered.count) answered changes before kill -9, restored revision \(state.revision), max answered \(answered.maxRevision)")
    }

    @Test func concurrentClientsEachGetTheirOwnRevision() throws {
        let bus = try PrivateBus()
        let navd = try NavdProcess.started(bus: bus)
        let answered = AnsweredChanges()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            guard let connection = try? Connection(.address(bus.address)) else { return }
            for _ in 0..<60 {
                if let out = try? connection.navigator("Push", [.string(index == 0 ? "orange" : "yellow"), .emptyParams]) {
                    answered.add(revision: out[0].uint64Value!, id: out[1].stringValue)
                }
            }
        }
        let client = try Connection(.address(bus.address))
        #expect(answered.count == 120)
        #expect(answered.revisions.count == answered.count, "two calls were answered with the same revision")
        #expect(try client.navigatorState().revision == 1 + UInt64(answered.count))
        _ = navd
    }

    @Test func aSecondNavdOnTheSameBusExitsWithAClearMessage() throws {
        let bus = try PrivateBus()
        let first = try NavdProcess.started(bus: bus)
        let second = try ChildProcess.run(
            Products.url("navd"), ["--address", bus.address, "--ephemeral"],
            environment: NavdProcess.isolatedEnvironment(bus: bus, home: first.home), timeout: 20)
        #expect(second.status == 1)
        #expect(second.stderr.contains("already"), "stderr: \(second.stderr)")
        let client = try Connection(.address(bus.address))
        #expect(try client.navigatorState().revision == 1)
        #expect(first.isRunning)
    }

    @Test func aCorruptStateFileIsRefusedAndLeftAsItIs() throws {
        let bus = try PrivateBus()
        let directory = NavdProcess.temporaryStateDirectory()
        let file = directory + "/navd.sqlite3"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: file))
        // A home of its own, so that no route file or app of the machine's user is read.
        let home = TemporaryDirectory.make("navd-corrupt-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try ChildProcess.run(
            Products.url("navd"), ["--address", bus.address, "--state-dir", directory],
            environment: NavdProcess.isolatedEnvironment(bus: bus, home: home), timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains(file), "stderr: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage)
    }

    @Test func aRouteThatLeftTheGraphIsReportedAndItsScreensDropped() throws {
        let bus = try PrivateBus()
        let directory = NavdProcess.temporaryStateDirectory()
        let withExtra = directory + "/with-extra.yaml", withoutExtra = directory + "/without-extra.yaml"
        try RouteFileFixture.graph(including: true).write(toFile: withExtra, atomically: true, encoding: .utf8)
        try RouteFileFixture.graph(including: false).write(toFile: withoutExtra, atomically: true, encoding: .utf8)
        let navd = try NavdProcess.started(bus: bus, stateDirectory: directory, extraArguments: ["--routes", withExtra])
        let client = try Connection(.address(bus.address))
        _ = try client.navigator("Push", [.string("orange"), .emptyParams])
        _ = try client.navigator("Push", [.string("extra"), .emptyParams])
        _ = try client.navigator("Push", [.string("yellow"), .emptyParams])
        #expect(navd.stop() == 0)

        let restarted = try NavdProcess.started(bus: bus, stateDirectory: directory, extraArguments: ["--routes", withoutExtra])
        #expect(try client.navigatorRoutes() == ["home", "orange"])
        #expect(restarted.stderr.contains("extra"), "the log should name the route that is gone: \(restarted.stderr)")
    }
}

/// Route files for tests: one tab, a few routes, and optionally the route `extra`.
enum RouteFileFixture {
    static func graph(including extra: Bool) -> String {
        """
        tabs:
          - name: main
            root: home
        routes:
          home: { title: Home }
          orange: { title: Orange }
          yellow: { title: Yellow }
        \(extra ? "  extra: { title: Extra }\n" : "")
        """
    }
}

/// Revisions and ids answered to the clients of a test, from several threads.
final class AnsweredChanges: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var revisions: Set<UInt64> = []
    private(set) var ids: Set<String> = []
    private(set) var count = 0

    func add(revision: UInt64, id: String?) {
        lock.lock()
        defer { lock.unlock() }
        revisions.insert(revision)
        if let id { ids.insert(id) }
        count += 1
    }

    var maxRevision: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return revisions.max() ?? 0
    }
}

extension NavdProcess {
    /// Runs `burst` (calls until navd is gone) while a thread of its own kills navd with SIGKILL
    /// after `delay` seconds; returns once the burst has returned and navd has exited.
    func kill9(after delay: Double, during burst: () -> Void) {
        let killer = Thread {
            usleep(UInt32(delay * 1_000_000))
            self.kill9()
        }
        killer.start()
        burst()
        while !ProcessExit.hasExited(pid) { usleep(10_000) }
    }
}
