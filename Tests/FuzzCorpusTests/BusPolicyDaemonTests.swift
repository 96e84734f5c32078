import ChildProcesses
import Foundation
import FuzzTargets
import TestFixtures
import Testing

/// The policies printed for the bus-policy target's corpus (Tests/Fuzz/bus-policy), each read by dbus-daemon's
/// own configuration parser: included into a private bus's configuration (ChildProcesses' PrivateBusConfiguration), the daemon must start.
@Suite(.serialized) struct BusPolicyDaemonTests {
    @Test(.timeLimit(.minutes(2)))
    func everyCorpusPolicyStartsADBusDaemon() throws {
        guard (try? BusDaemon.executable()) != nil else {
            print("skipped: dbus-daemon is not installed")
            return
        }
        let root = Fixture.repository + "/Tests/Fuzz/bus-policy"
        let inputs = FuzzCorpusTests.files(root + "/corpus") + FuzzCorpusTests.files(root + "/regressions")
        var tried = 0
        for file in inputs {
            let data = try #require(FileManager.default.contents(atPath: file))
            guard let (_, text) = data.withUnsafeBytes({ busPolicy($0) }) else { continue }
            let folder = NSTemporaryDirectory() + "navd-fuzz-policy-\(getpid())-\(tried)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try text.write(toFile: folder + "/policy.conf", atomically: true, encoding: .utf8)
            let configuration = folder + "/bus.conf"
            try PrivateBusConfiguration.text(extraXML: "<include>\(folder)/policy.conf</include>")
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            // dbus-daemon warns about users and groups this machine does not have, and starts: only a
            // configuration it cannot parse stops it before it prints its address.
            let pid = try Spawn.start(
                try BusDaemon.executable(), ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
                output: folder + "/out", errors: folder + "/errors")
            let deadline = ProcessExit.monotonicSeconds() + 10
            while !(FileText.read(folder + "/out") ?? "").hasPrefix("unix:"), !ProcessExit.hasExited(pid),
                  ProcessExit.monotonicSeconds() < deadline {
                usleep(5_000)
            }
            if !(FileText.read(folder + "/out") ?? "").hasPrefix("unix:") {
                Issue.record("\(file): dbus-daemon refuses the printed policy: \(FileText.read(folder + "/errors") ?? "")")
            }
            #expect(ProcessExit.terminate(pid), "dbus-daemon \(pid) did not stop")
            tried += 1
        }
        #expect(tried >= 3, "only \(tried) inputs of \(root) give a policy")
    }
}
