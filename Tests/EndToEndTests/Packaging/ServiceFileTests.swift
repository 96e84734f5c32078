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

    @Test func manPagesAreCurrentListEveryOptionAndRenderWithoutWarnings() throws {
        try runScript("man-pages-test.sh")
    }
}
