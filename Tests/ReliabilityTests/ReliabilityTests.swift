import DBus
import Foundation
import TestSupport
import Testing

/// The reliability suite of issue 8: bad input, crashes, concurrency, watchers, a soak and a
/// full file system, each against the real navd on a private bus, each printing its figures
/// (`reliability: …` lines). Short by default; `NAVD_RELIABILITY=long` runs the long form.
///
/// Serialized: each test starts its own bus and navd, and they measure time, so they must not
/// compete with each other for the machine's two cores.
@Suite(.serialized)
struct ReliabilityTests {
    /// A private bus and a navd with persistence on, in a fresh state directory; nil (and a
    /// printed reason) when this machine cannot run them.
    static func startNavd(
        _ test: String, extraArguments: [String] = [], stateDirectory: String? = nil
    ) throws -> (PrivateBus, NavdProcess, String)? {
        guard PrivateBus.isAvailable else {
            print("reliability: \(test) skipped: dbus-daemon is not installed")
            return nil
        }
        guard NavdProcess.isBuilt else {
            print("reliability: \(test) skipped: navd is not built at \(NavdProcess.executable)")
            return nil
        }
        let directory = stateDirectory ?? temporaryDirectory("state-\(test)")
        let bus = try PrivateBus()
        let navd = NavdProcess(bus: bus, stateDirectory: directory, extraArguments: extraArguments)
        try navd.start()
        return (bus, navd, directory)
    }

    /// A new empty directory under the temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        TemporaryDirectory.make("navd-reliability-\(name)")
    }

    /// Removes a directory made by `temporaryDirectory`.
    static func remove(_ path: String) {
        TemporaryDirectory.remove(path)
    }
}
