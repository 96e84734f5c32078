import DBus
import Foundation
import TestSupport
import Testing

/// Leaks in the test fixtures that `swift test --sanitize=address` (LeakSanitizer) reported.
/// The sanitizer run in `make check-long` is what catches a leak coming back; these tests pin
/// the behaviour each fix relies on, so that they fail in a plain `swift test` too.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FixtureLeakRegressionTests {
    /// ServiceLoop kept its `Thread`, whose closure held the loop: a cycle that leaked the
    /// loop, its connection (and socket) and its server after every test.
    @Test(.enabled(if: PrivateBus.isAvailable, busUnavailableReason))
    func serviceLoopIsReleasedOnceStopped() throws {
        let bus = try PrivateBus()
        weak var released: ServiceLoop?
        weak var releasedConnection: Connection?
        do {
            let connection = try Connection(.address(bus.address))
            let loop = ServiceLoop(connection: connection, server: ObjectServer())
            loop.start()
            #expect(try loop.perform { 42 } == 42, "the loop runs")
            loop.stop()
            released = loop
            releasedConnection = connection
        }
        // The thread lets go of its closure (and so of the loop) when it exits, just after stop().
        let deadline = Date().addingTimeInterval(5)
        while (released != nil || releasedConnection != nil) && Date() < deadline { usleep(10_000) }
        #expect(released == nil, "a stopped ServiceLoop is freed")
        #expect(releasedConnection == nil, "and so is its connection")
    }

    /// ChildProcess read output with `FileManager.contents(atPath:)`, which leaks 4 KiB per empty
    /// file on Linux; it now reads with read(2). Empty, short and large output must still read
    /// back exactly.
    @Test func childOutputIsReadWithoutFoundationsEmptyFileLeak() throws {
        let silent = try ChildProcess.run("/bin/true", [])
        #expect(silent.status == 0 && silent.stdout.isEmpty && silent.stderr.isEmpty)

        let large = try ChildProcess.run("/bin/sh", ["-c", "head -c 100000 /dev/zero | tr '\\0' x; echo; echo e >&2"])
        #expect(large.stdout.count == 100_001 && large.stdout.hasPrefix("xxx") && large.stdout.hasSuffix("x\n"))
        #expect(large.stderr == "e\n")

        let utf8 = try ChildProcess.run("/usr/bin/printf", ["r\\303\\251vision\\n"])
        #expect(utf8.stdout == "révision\n")
    }
}
