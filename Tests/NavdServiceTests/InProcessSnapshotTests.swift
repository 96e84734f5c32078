import DBus
import Foundation
import NavigatorProtocol
import TestSupport
import Testing
@testable import NavdService

/// Snapshots off the reply path (`docs/durability.md#the-state-file`): the encoding of a snapshot is held up at a
/// gate on its own thread, so that what the loop does meanwhile is seen without depending on how fast a state
/// encodes.
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct InProcessSnapshotTests {
    /// Push("orange") and Pop, `pairs` times, sent without waiting; their serials.
    static func sendPairs(_ navd: InProcessDaemon, _ pairs: Int) throws -> [UInt32] {
        var serials: [UInt32] = []
        for _ in 0..<pairs {
            serials.append(try navd.send(.push, [.string("orange"), InProcessDaemon.noParams]))
            serials.append(try navd.send(.pop))
        }
        return serials
    }

    /// The replies and errors among the next `count` messages that are replies or signals.
    static func replies(_ navd: InProcessDaemon, calls: Int) throws -> [Message] {
        var replies: [Message] = []
        while replies.count < calls {
            replies += try navd.receive(1).filter { $0.kind == .methodReturn || $0.kind == .error }
        }
        return replies
    }

    @Test func callsAreAnsweredWhileASnapshotIsBeingEncoded() throws {
        let navd = try InProcessDaemon("snapshot-held")
        let gate = DispatchSemaphore(value: 0)
        defer {
            gate.signal()
            navd.stop()
        }
        navd.daemon.beforeEncodingSnapshot = { gate.wait() }
        navd.start()
        // 1,200 changes: the commit that brings the journal to 1,000 rows starts a snapshot, held at the gate.
        let serials = try Self.sendPairs(navd, 600)
        let replies = try Self.replies(navd, calls: serials.count)
        #expect(replies.map(\.replySerial) == serials, "every call answered, in order, while the snapshot waits")
        #expect(replies.allSatisfy { $0.kind == .methodReturn }, "\(Set(replies.map(\.label)))")
        gate.signal()
        let after = try Self.sendPairs(navd, 10)
        #expect(try Self.replies(navd, calls: after.count).map(\.replySerial) == after)
    }

    @Test func aStopDoesNotWaitForAHeldSnapshotAndWritesItsOwn() throws {
        let navd = try InProcessDaemon("snapshot-stop")
        let gate = DispatchSemaphore(value: 0)
        defer {
            gate.signal()   // lets the abandoned encoding end (it wakes nothing)
            navd.stop()
        }
        navd.daemon.beforeEncodingSnapshot = { gate.wait() }
        navd.start()
        let serials = try Self.sendPairs(navd, 600)
        _ = try Self.replies(navd, calls: serials.count)
        navd.daemon.requestStop()
        #expect(navd.waitForExit(seconds: 30), "the loop returned without the held snapshot")
        let store = try StateStore(directory: navd.directory, durability: .normal)
        defer { store.close() }
        let contents = try store.load()
        // The revision is read out before it is compared: `#expect(contents.snapshot?.revision == 1 + 1_200)` had
        // AddressSanitizer report the comparison's operand read after its frame returned (check-long, 2026-11-28).
        let revision: UInt64 = contents.snapshot?.revision ?? 0
        #expect(revision == 1_201, "the stop's own snapshot holds every change")
        #expect(contents.journal.isEmpty, "and covers every row")
    }
}
