import Foundation
import Testing
import TestSupport
import TestFixtures

/// The installed files at work: D-Bus activation under a real systemd user manager, the
/// system-bus policy, and the man pages. Each runs a script in Tests/Scripts (exit 0 passed, 77
/// cannot run here).
@Suite("service files", .serialized, .timeLimit(.minutes(3)))
struct ServiceFileTests {
    private static let scripts = URL(fileURLWithPath: Fixture.repository).appendingPathComponent("Tests/Scripts")

    private func runScript(_ name: String) throws {
        let result = try ChildProcess.run("/bin/bash", [Self.scripts.appendingPathComponent(name).path, Products.directory], timeout: 150)
        print(result.stdout, terminator: "")
        if result.status == 77 {
            try Test.cancel("\(name): \(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        #expect(result.status == 0, "\(name) failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("PASS"))
    }

    @Test func dbusActivationUnderARealSystemdUserManager() throws {
        try runScript("activation-test.sh")
    }

    @Test func systemBusPolicyLetsEveryoneReadAndOnlyTheGroupChange() throws {
        try runScript("system-policy-test.sh")
    }

    /// The shipped policy is what `navd --print-bus-policy` prints for route files without `access:`: kept by
    /// hand, it once left out GetTreeAt, GetChanges, Export and GetLimits, refusing them to every user outside
    /// group navd on the system bus.
    @Test func theShippedBusPolicyIsThePrintedOneWithoutAccessKeys() throws {
        let apps = FileManager.default.temporaryDirectory.appendingPathComponent("navd-policy-\(getpid())").path
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: apps) }
        let printed = try ChildProcess.run(NavdProcess.executable, ["--print-bus-policy", "--apps-dir", apps])
        #expect(printed.status == 0, "\(printed.stderr)")
        let shipped = try String(contentsOfFile: Fixture.repository + "/dbus/org.navd.Navigator1.conf", encoding: .utf8)
        #expect(printed.stdout == shipped,
                "dbus/org.navd.Navigator1.conf differs from what navd prints; regenerate it with `navd --print-bus-policy --apps-dir EMPTY-FOLDER > dbus/org.navd.Navigator1.conf`")
        for reader in ["GetTreeAt", "GetChanges", "Export", "GetLimits", "GetState"] {
            #expect(shipped.contains("send_member=\"\(reader)\""), "the shipped policy lets everyone call \(reader)")
        }
        #expect(!shipped.contains("send_member=\"Push\""), "changes stay the group's")
    }

    @Test func manPagesAreCurrentListEveryOptionAndRenderWithoutWarnings() throws {
        try runScript("man-pages-test.sh")
    }
}
