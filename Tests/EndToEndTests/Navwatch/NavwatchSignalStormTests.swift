import Foundation
import TestSupport
import Testing

/// navwatch's signal handlers reached the client through a Swift class reference (retain and release in a
/// handler are not async-signal-safe); they now only store an atomic flag and write the connection's eventfd.
/// A storm of SIGWINCH while changes stream in must leave every line intact, and SIGTERM must still end it
/// with 0. (A race in a handler shows only now and then, so this test can pass on the old code too.)
@Suite("navwatch under a storm of signals", .serialized, .enabled(if: EndToEnd.clientsAvailable),
       .timeLimit(.minutes(1)))
struct NavwatchSignalStormTests {
    @Test("500 SIGWINCH during 20 changes: every change printed once, in order; SIGTERM exits 0")
    func resizeStorm() throws {
        try Peer.watchedFromRevision1 { peer, watch in
            var expected = ["1 state rainbow: red"]
            for revision in 2...21 {
                for _ in 0..<25 { watch.signal(SIGWINCH) }
                let routes = Array(repeating: "orange", count: revision - 1)
                try peer.emit("push", Peer.rainbow(UInt64(revision), routes))
                expected.append("\(revision) push rainbow: " + (["red"] + routes).joined(separator: " > "))
            }
            watch.waitForLines(expected.count)
            #expect(watch.stop(with: SIGTERM) == 0)
            #expect(watch.outputLines == expected)
        }
    }
}
