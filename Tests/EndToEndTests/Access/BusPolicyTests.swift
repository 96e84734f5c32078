import DBus
import Foundation
import Testing
import TestSupport

/// `navd --print-bus-policy` (docs/multi-user.md): the policy made from the route files' access: keys,
/// read by a real dbus-daemon, keeps an outsider from calling an app's readers and from receiving its signals.
@Suite(.serialized, .enabled(if: MultiUserNavd.available), .timeLimit(.minutes(3)))
struct BusPolicyTests {
    /// Real users, a private bus and navd, started afresh for each test.
    let fixture: MultiUserNavd

    init() throws { fixture = try MultiUserNavd() }

    static let shopPath = "/org/navd/Navigator1/apps/shop"

    @Test func thePrintedPolicyNamesEachAppsUsersAndGroupsByPath() throws {
        let printed = try fixture.run(as: nil, NavdProcess.executable, ["--print-bus-policy", "--apps-dir", fixture.navd.appsDirectory])
        #expect(printed.status == 0, "\(printed.stderr)")
        let policy = printed.stdout
        #expect(policy.contains("<policy user=\"alice\">\n    <allow send_destination=\"org.navd.Navigator1\" send_interface=\"org.navd.Navigator1\" send_path=\"\(Self.shopPath)\"/>"))
        #expect(policy.contains("<policy group=\"monitor\">\n    <allow send_destination=\"org.navd.Navigator1\" send_interface=\"org.navd.Navigator1\" send_member=\"GetState\" send_path=\"\(Self.shopPath)\"/>"))
        #expect(policy.contains("<deny receive_sender=\"org.navd.Navigator1\" receive_type=\"signal\" receive_path=\"\(Self.shopPath)\"/>"))
        #expect(!policy.contains("apps/mail\""), "an app without access: keeps the shipped rules")
        // A route file naming an unknown user prints no policy at all.
        try MultiUserNavd.shop.replacingOccurrences(of: "[alice, ", with: "[mallory, ")
            .write(toFile: fixture.navd.appsDirectory + "/shop.yaml", atomically: true, encoding: .utf8)
        let refused = try fixture.run(as: nil, NavdProcess.executable, ["--print-bus-policy", "--apps-dir", fixture.navd.appsDirectory])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("no user 'mallory'"))
    }

    @Test func anOutsiderCanNeitherCallTheReadersNorReceiveTheSignals() throws {
        let printed = try fixture.run(as: nil, NavdProcess.executable, ["--print-bus-policy", "--apps-dir", fixture.navd.appsDirectory])
        try fixture.usePolicy(printed.stdout)

        let outsider = try fixture.dbusSend(as: "bob", Self.shopPath, "org.navd.Navigator1.GetState")
        #expect(outsider.status != 0)
        #expect(outsider.stderr.contains("org.freedesktop.DBus.Error.AccessDenied") && outsider.stderr.contains("Rejected send message"),
                "the bus itself refuses: \(outsider)")
        #expect(try fixture.dbusSend(as: "dave", Self.shopPath, "org.navd.Navigator1.GetState").status == 0, "a reader passes the bus and navd")

        let rule = "type='signal',sender='org.navd.Navigator1',path='\(Self.shopPath)'"
        let bob = try fixture.start(as: "bob", "/usr/bin/dbus-monitor", ["--address", fixture.bus.address, rule])
        let dave = try fixture.start(as: "dave", "/usr/bin/dbus-monitor", ["--address", fixture.bus.address, rule])
        usleep(500_000)
        #expect(try fixture.navctl(as: "alice", "--app", "shop", "push", "product").status == 0)
        #expect(dave.waitForOutput(containing: "member=StackChanged", timeout: 10), "a reader receives the app's signals")
        usleep(300_000)
        bob.stop()
        dave.stop()
        #expect(!bob.stdoutText.contains("member=StackChanged"), "an outsider receives none: \(bob.stdoutText)")
    }
}
