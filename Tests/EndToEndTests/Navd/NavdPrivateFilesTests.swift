import DBus
import Foundation
import Testing
import TestSupport

/// navd keeps its state private whatever the umask it is started with (by hand, or by D-Bus
/// activation without systemd's `UMask=0077`), and tightens a state folder or file it finds
/// looser, saying so in its log.
@Suite("navd private files", .serialized, .timeLimit(.minutes(2)))
struct NavdPrivateFilesTests {
    /// The permission bits of `path` (0 when it is missing).
    func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test func underUmask022EveryStateFolderIs0700AndEveryFile0600AndLooserOnesAreTightened() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let scratch = TemporaryDirectory.make("navd-private")
        defer { TemporaryDirectory.remove(scratch) }
        let state = scratch + "/state/navd"
        let navd = NavdProcess(
            bus: bus, stateDirectory: state, launcher: { ["/bin/sh", "-c", "umask 022 && exec " + $0] })
        try AppRouteFiles.shop.write(toFile: navd.appsDirectory + "/shop.yaml", atomically: true, encoding: .utf8)
        try navd.start()
        let client = try Connection(.address(bus.address))
        _ = try client.navigator("Push", [.string("orange"), .emptyParams])
        _ = try client.navigator("Push", [.string("basket"), .emptyParams], at: NavdWithApps.path("shop"))

        let app = state + "/apps/shop"
        let folders = [scratch + "/state", state, state + "/apps", app]
        let files = [
            state + "/navd.sqlite3", state + "/navd.sqlite3-wal", state + "/navd.lock",
            app + "/navd.sqlite3", app + "/navd.sqlite3-wal",
        ]
        for folder in folders { #expect(mode(folder) == 0o700, "\(folder): \(String(mode(folder), radix: 8))") }
        for file in files { #expect(mode(file) == 0o600, "\(file): \(String(mode(file), radix: 8))") }
        let entries = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(Set(entries) == ["navd.sqlite3", "navd.sqlite3-wal", "navd.lock", "apps"], "no other file: \(entries)")
        #expect(!navd.stderr.contains("open to other users"), "nothing was loose at the first start: \(navd.stderr)")
        // A crash leaves the log behind; the next start reads it (through a read-only check first)
        // and whatever SQLite makes on the way is as private.
        let answered = try client.navigatorState().revision
        navd.kill9()
        try navd.start()
        for folder in [state, app] {
            for entry in try FileManager.default.contentsOfDirectory(atPath: folder) where entry != "apps" {
                #expect(mode(folder + "/" + entry) == 0o600, "\(folder)/\(entry): \(String(mode(folder + "/" + entry), radix: 8))")
            }
        }
        let revision = try client.navigatorState().revision
        #expect(revision == answered)
        #expect(navd.stop() == 0)

        // Loosened while navd is stopped (a restore from a backup, a careless chmod).
        let loosened: [(String, mode_t)] = [
            (state, 0o755), (state + "/navd.sqlite3", 0o644), (state + "/navd.lock", 0o644), (app, 0o755),
            (app + "/navd.sqlite3", 0o664),
        ]
        for (path, loose) in loosened { #expect(chmod(path, loose) == 0) }
        try navd.start()
        #expect(try client.navigatorState().revision == revision, "the state is still there")
        for (path, _) in loosened {
            let expected: mode_t = path == state || path == app ? 0o700 : 0o600
            #expect(mode(path) == expected, "\(path): \(String(mode(path), radix: 8))")
            #expect(
                navd.stderr.split(separator: "\n").contains { $0.contains(path + " was open to other users") && $0.contains("now 0" + String(expected, radix: 8)) },
                "the log names \(path): \(navd.stderr)")
        }
        #expect(navd.stop() == 0)
    }
}
