import Foundation
import Testing
import TestSupport

/// The system service as `make install` lays it out (scripts/install.sh, docs/multi-user.md): the system
/// unit, sysusers.d, the system bus's activation file and the bus policy where the system bus reads it for
/// every prefix; and the unit's sandbox rated by `systemd-analyze security --offline=true`.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SystemServiceInstallTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Installs into a temporary DESTDIR with `prefix`; returns the DESTDIR and the script's output.
    func install(prefix: String) throws -> (destdir: String, output: String)? {
        guard ["navd", "navctl", "navwatch"].allSatisfy(Products.exists) else {
            print("skipping the install test: navd, navctl or navwatch is not built")
            return nil
        }
        let destdir = TemporaryDirectory.make("navd-install")
        let result = try ChildProcess.run(
            "/bin/bash", [Self.repository.appendingPathComponent("scripts/install.sh").path, "install", Products.directory, prefix, destdir],
            environment: ["STRIP": "", "HOME": "/nonexistent-home"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        return (destdir, result.stdout)
    }

    @Test(arguments: [("/usr", "/usr/share/dbus-1/system.d"), ("/usr/local", "/etc/dbus-1/system.d"), ("/opt/navd", "/etc/dbus-1/system.d")])
    func thePolicyGoesWhereTheSystemBusReadsIt(_ prefix: String, _ policyDirectory: String) throws {
        guard let (destdir, output) = try install(prefix: prefix) else { return }
        defer { TemporaryDirectory.remove(destdir) }
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: destdir + policyDirectory + "/org.navd.Navigator1.conf"))
        #expect(!manager.fileExists(atPath: destdir + prefix + "/share/dbus-1/system.d/org.navd.Navigator1.conf") || prefix == "/usr")
        let unit = try String(contentsOfFile: destdir + prefix + "/lib/systemd/system/navd.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix)/bin/navd --system\n"))
        #expect(unit.contains("User=navd\n") && unit.contains("StateDirectory=navd\n") && unit.contains("ConfigurationDirectory=navd\n"))
        let activation = try String(contentsOfFile: destdir + prefix + "/share/dbus-1/system-services/org.navd.Navigator1.service", encoding: .utf8)
        #expect(activation.contains("User=navd\n") && activation.contains("SystemdService=navd.service\n") && activation.contains("Exec=\(prefix)/bin/navd --system\n"))
        let sysusers = try String(contentsOfFile: destdir + prefix + "/lib/sysusers.d/navd.conf", encoding: .utf8)
        #expect(sysusers.contains("u navd - "))
        #expect(output.contains("bus policy \(destdir + policyDirectory)/org.navd.Navigator1.conf"), "install.sh says where: \(output)")
        // Nothing enabled: no wants/ link anywhere.
        let everything = manager.enumerator(atPath: destdir)?.allObjects as? [String] ?? []
        #expect(!everything.contains { $0.contains(".wants/") })
    }

    @Test func theSystemUnitIsRatedSafeBySystemdAnalyze() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            print("skipping the sandbox rating: systemd-analyze is not installed")
            return
        }
        guard let (destdir, _) = try install(prefix: "/usr") else { return }
        defer { TemporaryDirectory.remove(destdir) }
        let result = try ChildProcess.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", destdir + "/usr/lib/systemd/system/navd.service"], timeout: 60)
        guard let line = (result.stdout + result.stderr).split(separator: "\n").first(where: { $0.contains("Overall exposure level") }) else {
            print("skipping the sandbox rating: systemd-analyze gave no rating here: \(result.stderr)")
            return
        }
        let figure = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        print("systemd-analyze security --offline=true navd.service: \(line)")
        #expect(figure != nil && figure! <= 2.0, "\(line)")
    }
}
