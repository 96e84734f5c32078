import DBus
import Foundation
import Testing
import TestSupport

/// `access:` against real users (docs/multi-user.md): who may change and read an app, the message a
/// refusal carries, the order of errors, what stays open, and what the clients show.
@Suite(.serialized, .enabled(if: MultiUserNavd.available), .timeLimit(.minutes(3)))
struct AccessTests {
    /// Real users, a private bus and navd, started afresh for each test.
    let fixture: MultiUserNavd

    init() throws { fixture = try MultiUserNavd() }

    static let shopPath = "/org/navd/Navigator1/apps/shop"
    static let denied = "org.freedesktop.DBus.Error.AccessDenied"

    func revision(_ fixture: MultiUserNavd) throws -> String {
        try fixture.navctl(as: nil, "--app", "shop", "state", "--json").stdout
    }

    @Test func ownersChangeAndOutsidersAreRefusedWithoutAnyChange() throws {
        #expect(try fixture.navctl(as: "alice", "--app", "shop", "push", "product").status == 0)
        #expect(try fixture.navctl(as: "carol", "--app", "shop", "push", "product").status == 0, "group shop may change")
        #expect(try fixture.navctl(as: "navd", "--app", "shop", "push", "product").status == 0, "navd's own user may change")
        #expect(try fixture.navctl(as: nil, "--app", "shop", "push", "product").status == 0, "root may change")
        let before = try revision(fixture)

        let bob = try fixture.navctl(as: "bob", "--app", "shop", "push", "product")
        #expect(bob.status == 1)
        #expect(bob.stderr == "navctl: app 'shop': Push is allowed to user alice and group shop; the caller is uid 59002 (bob) [\(Self.denied)]\n")
        let dave = try fixture.navctl(as: "dave", "--app", "shop", "pop")
        #expect(dave.status == 1, "a reader may not change")
        #expect(dave.stderr.contains("app 'shop': Pop is allowed to user alice and group shop; the caller is uid 59004 (dave)"))
        #expect(try revision(fixture) == before, "a refused call changes nothing")

        #expect(try fixture.navctl(as: "dave", "--app", "shop", "state").status == 0, "group monitor may read")
        #expect(try fixture.navctl(as: "alice", "--app", "shop", "state").status == 0, "who may change may read")
        let outsider = try fixture.navctl(as: "bob", "--app", "shop", "state")
        #expect(outsider.status == 1)
        #expect(outsider.stderr.contains("app 'shop': GetState is allowed to user alice and groups shop and monitor; the caller is uid 59002 (bob)"))

        #expect(try fixture.navctl(as: "bob", "--app", "mail", "push", "message").status == 0, "an app without access: is open")
        #expect(try fixture.navctl(as: "bob", "push", "orange").status == 0, "the default navigator without access: is open")
        #expect(fixture.navd.stderr.contains("refused: app 'shop': Push is allowed to user alice and group shop; the caller is uid 59002 (bob)"))
    }

    @Test func refusalComesAfterUnknownMethodAndBeforeInvalidArgs() throws {
        let unknown = try fixture.dbusSend(as: "bob", Self.shopPath, "org.navd.Navigator1.NoSuchMethod")
        #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), "\(unknown)")
        let noObject = try fixture.dbusSend(as: "bob", "/org/navd/Navigator1/apps/nothere", "org.navd.Navigator1.Push")
        #expect(noObject.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(noObject)")
        let badArguments = try fixture.dbusSend(as: "bob", Self.shopPath, "org.navd.Navigator1.Push")
        #expect(badArguments.stderr.contains(Self.denied), "\(badArguments)")
        let owner = try fixture.dbusSend(as: "alice", Self.shopPath, "org.navd.Navigator1.Push")
        #expect(owner.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(owner)")
    }

    @Test func introspectionPeerAndAccessStayOpenOtherPropertiesNeedRead() throws {
        let access = try fixture.dbusSend(
            as: "bob", Self.shopPath, "org.freedesktop.DBus.Properties.Get", "string:org.navd.Navigator1", "string:Access")
        #expect(access.status == 0, "\(access)")
        #expect(access.stdout.contains("\"change\"") && access.stdout.contains("\"@shop\"") && access.stdout.contains("\"@monitor\""))
        let revision = try fixture.dbusSend(
            as: "bob", Self.shopPath, "org.freedesktop.DBus.Properties.Get", "string:org.navd.Navigator1", "string:Revision")
        #expect(revision.stderr.contains(Self.denied), "\(revision)")
        let all = try fixture.dbusSend(as: "bob", Self.shopPath, "org.freedesktop.DBus.Properties.GetAll", "string:org.navd.Navigator1")
        #expect(all.stderr.contains(Self.denied), "\(all)")
        #expect(try fixture.dbusSend(as: "dave", Self.shopPath, "org.freedesktop.DBus.Properties.GetAll", "string:org.navd.Navigator1").status == 0)
        #expect(try fixture.dbusSend(as: "bob", Self.shopPath, "org.freedesktop.DBus.Introspectable.Introspect").status == 0)
        #expect(try fixture.dbusSend(as: "bob", Self.shopPath, "org.freedesktop.DBus.Peer.Ping").status == 0)
    }

    @Test func appsListingShowsAnOutsiderOnlyTheAccess() throws {
        let outsider = try fixture.navctl(as: "bob", "apps")
        #expect(outsider.status == 0, "\(outsider)")
        #expect(outsider.lines.contains { $0.hasPrefix("shop") && $0.contains("  -  ") && $0.hasSuffix("access change: alice, @shop; read: @monitor") }, "\(outsider)")
        #expect(outsider.lines.contains { $0.hasPrefix("mail") && $0.contains("inbox") }, "\(outsider)")
        let reader = try fixture.navctl(as: "dave", "apps")
        #expect(reader.lines.contains { $0.hasPrefix("shop") && $0.contains("catalog") && $0.hasSuffix("access change: alice, @shop; read: @monitor") }, "\(reader)")
        let json = try fixture.navctl(as: "bob", "apps", "--json")
        #expect(json.stdout.contains("\"access\":{\"change\":[\"alice\",\"@shop\"],\"read\":[\"@monitor\"]}"), "\(json)")
        #expect(!json.stdout.contains("\"top\":\"catalog\""), "an outsider sees no state of shop: \(json)")
    }

    @Test func reloadOfTheDefaultObjectNeedsChangeOnTheDefaultNavigator() throws {
        // The shop's Reload needs the shop's change; the default object's is open while its navigator has no access:.
        let refused = try fixture.navctl(as: "bob", "--app", "shop", "reload")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("app 'shop': Reload is allowed to user alice and group shop"))
        #expect(try fixture.navctl(as: "alice", "--app", "shop", "reload").status == 0)
        #expect(try fixture.navctl(as: "bob", "reload").status == 0)
    }

    @Test func aRouteFileNamingAnUnknownUserKeepsTheAppsOldAccess() throws {
        let file = fixture.navd.appsDirectory + "/shop.yaml"
        try MultiUserNavd.shop.replacingOccurrences(of: "[alice, ", with: "[alice, mallory, ").write(toFile: file, atomically: true, encoding: .utf8)
        let reload = try fixture.navctl(as: nil, "--app", "shop", "reload")
        #expect(reload.status == 1)
        #expect(reload.stderr.contains("shop.yaml:3: access.change[1]: no user 'mallory' on this system"), "\(reload)")
        #expect(try fixture.navctl(as: "bob", "--app", "shop", "push", "product").status == 1, "the old access holds")
        #expect(try fixture.navctl(as: "alice", "--app", "shop", "push", "product").status == 0)
    }

    /// navwatch refused by an app's `access:`: it prints navd's message and keeps waiting, as for a gone navd;
    /// with `--once` it exits 1.
    @Test func navwatchPrintsTheRefusalAndKeepsWaiting() throws {
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
