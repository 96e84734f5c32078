import DBus
import Foundation
import Testing
import TestSupport

/// How the harness waits for navd to answer after a start (`NavdProcess.waitUntilReady`): a navd
/// slow to be scheduled is waited for while it has had less than the timeout's worth of CPU; a navd
/// that makes no progress at all is given up on, naming the CPU it used. Before, the timeout was
/// wall clock only, and under check-long's TSan stage (nice 10, beside two fuzzers) a restart that
/// takes 8 s of CPU went past 60 s of wall clock and failed the worst-case reliability test.
@Suite("navd start wait", .serialized, .timeLimit(.minutes(3)), .enabled(if: EndToEnd.navdAvailable))
struct NavdStartWaitTests {
    /// A navd on a private bus of its own, started by the shell line `script` with `NAVD` standing for its
    /// command line; killed, and its bus and state removed, after `body`.
    func withNavd(launchedBy script: String, _ body: (NavdProcess, PrivateBus) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let state = NavdProcess.temporaryStateDirectory()
        defer { TemporaryDirectory.remove(state) }
        let launcher: (String) -> [String] = { ["/bin/sh", "-c", script.replacingOccurrences(of: "NAVD", with: $0)] }
        let navd = NavdProcess(bus: bus, stateDirectory: state, launcher: launcher)
        defer { navd.kill9() }
        try body(navd, bus)
    }

    @Test func aNavdThatStartsAfterTheTimeoutWithoutUsingTheCPUIsWaitedFor() throws {
        // The same process (exec) sleeps 3 s, using no CPU, then becomes navd: past the 2 s timeout.
        try withNavd(launchedBy: "sleep 3 && exec NAVD") { navd, bus in
            let seconds = try navd.start(timeout: 2)
            #expect(seconds >= 3, "navd answered before its launcher's sleep ended: \(seconds) s")
            #expect(try Connection(.address(bus.address)).navigator("GetState").count == 3)
        }
    }

    @Test func aNavdThatNeverRunsIsGivenUpOnNamingTheCPUItUsed() throws {
        // The process stops itself before it becomes navd: it never answers and uses no CPU.
        try withNavd(launchedBy: "kill -STOP $$ && exec NAVD") { navd, _ in
            let began = Date()
            #expect {
                try navd.start(timeout: 0.5)
            } throws: { error in
                "\(error)".contains("did not answer GetState within 0.5 s") && "\(error)".contains("s of CPU")
            }
            #expect(Date().timeIntervalSince(began) >= 0.5 * NavdProcess.stalledFactor)
        }
    }
}
