import DBus
import Foundation
import Testing
import TestSupport

/// navwatch refused by an app's `access:` (docs/multi-user.md): it prints navd's message and keeps
/// waiting, as for a gone navd; with `--once` it exits 1.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AccessClientTests {
    @Test func navwatchPrintsTheRefusalAndKeepsWaiting() throws {
        guard MultiUserNavd.available else { return }
        let fixture = try MultiUserNavd()
        let message = "app 'shop': GetState is allowed to user alice and groups shop and monitor; the caller is uid 59002 (bob)"
        let once = try fixture.run(as: "bob", Products.url("navwatch"), ["--address", fixture.bus.address, "--app", "shop", "--once"])
        #expect(once.status == 1, "\(once)")
        #expect(once.stderr.contains(message), "\(once.stderr)")

        let watch = try fixture.start(as: "bob", Products.url("navwatch"), ["--address", fixture.bus.address, "--app", "shop", "--lines"])
        #expect(watch.waitForOutput(containing: "-- navd gone", timeout: 10))
        #expect(watch.waitForOutput(containing: message, in: .stderr, timeout: 10), "\(watch.stderrText)")
        usleep(500_000)
        #expect(!ProcessExit.hasExited(watch.pid), "navwatch keeps waiting")
        #expect(watch.stop(with: SIGTERM) == 0)
    }
}
