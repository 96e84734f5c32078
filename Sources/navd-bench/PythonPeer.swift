import BusHarness
import Foundation

extension BenchRun {
    /// Starts scripts/navd-pypeer.py (the dbus-python service a user would write instead of
    /// navd) on `site`'s bus as `org.navd.Python1` and waits until it answers.
    func startPythonPeer(on site: BenchSite) throws -> ChildProcess {
        guard let script = repositoryFile("scripts/navd-pypeer.py") else {
            throw BenchError("scripts/navd-pypeer.py not found (run navd-bench from the repository)")
        }
        let peer = try ChildProcess(
            launching: "/usr/bin/python3",
            arguments: [script, "--address", site.bus.address, "--name", CallTarget.python.busName])
        guard waitUntilAnswering(site.client, .python, kind: .ping, seconds: 20) else {
            peer.stop()
            throw BenchError("the dbus-python peer did not answer within 20 s (python3-dbus and python3-gi installed?):\n\(peer.logTail())")
        }
        return peer
    }
}
