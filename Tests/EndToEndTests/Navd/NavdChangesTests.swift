import DBus
import Foundation
import NavdClient
import NavigatorProtocol
import Testing
import TestSupport

/// GetChanges against a real navd (docs/devtools.md "Who changed what"): the method, the arguments and the
/// caller of each change, as the bus described the caller; kept across kill -9 and a snapshot; a reconcile
/// after a Reload call names that call; busctl and gdbus read it.
@Suite("navd GetChanges", .serialized, .timeLimit(.minutes(3)))
struct NavdChangesTests {
    /// This process's name as the kernel gives it (`/proc/self/comm`).
    static var ownCommand: String {
        ((try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    @Test func aPushFromNavctlAndASendFromTheClientRecordTheirCallerAndSurviveKillNine() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        _ = try fixture.navctlSucceeding("push", "orange")
        var client = try fixture.client()
        let topBefore = try client.send(.getState).path.last?.id ?? ""
        #expect(try client.send(.send("next")).outcome == .applied)
        let changes = try client.send(.getChanges())
        #expect(changes.map(\.revision) == [2, 3] && changes.map(\.cause) == ["push", "send"], "\(changes)")
        let push = try #require(changes.first)
        #expect(push.method == "Push")
        #expect(push.arguments == [.string("orange"), .dictionary(key: "s", value: "v", [])], "\(push.arguments)")
        #expect(push.string(.sender)?.hasPrefix(":") == true && push.string(.sender) != client.connection.uniqueName)
        #expect(push.uint32(.uid) == getuid())
        #expect(push.uint32(.pid).map { $0 > 0 && Int32($0) != getpid() } == true, "\(push.details)")
        #expect(push.string(.command) == "navctl")
        #expect(push.string(.tab) == "rainbow" && push.string(.top) == "orange")
        #expect(push.details["event"] == nil && push.details["reason"] == nil)
        #expect(abs(push.time - Int64(Date().timeIntervalSince1970 * 1_000_000)) < 120_000_000)
        let send = changes[1]
        #expect(send.method == "Send")
        #expect(send.arguments == [.string(""), .string("next"), .dictionary(key: "s", value: "v", []), .uint64(0)], "\(send.arguments)")
        #expect(send.string(.sender) == client.connection.uniqueName)
        #expect(send.uint32(.uid) == getuid() && send.uint32(.pid) == UInt32(getpid()))
        #expect(send.string(.command) == Self.ownCommand)
        #expect(send.string(.event) == "next" && send.string(.source) == topBefore && !topBefore.isEmpty)
        #expect(send.string(.outcome) == "applied" && send.string(.top) == "yellow")

        // from_revision and limit: oldest first from the revision, at most limit.
        #expect(try client.send(.getChanges(from: 3)).map(\.revision) == [3])
        #expect(try client.send(.getChanges(from: 0, limit: 1)).map(\.revision) == [2])
        #expect(try client.send(.getChanges(from: 4)).isEmpty)
        #expect(try client.send(.getChanges(from: 0, limit: 0)).isEmpty)

        // Kept across kill -9 (the journal), then across a snapshot (SIGTERM compacts) and kill -9 again.
        fixture.navd.kill9()
        try fixture.navd.start()
        client = try fixture.client()
        #expect(try client.send(.getChanges()) == changes)
        #expect(fixture.navd.stop() == 0)
        try fixture.navd.start()
        client = try fixture.client()
        _ = try client.send(.pop)
        fixture.navd.kill9()
        try fixture.navd.start()
        client = try fixture.client()
        let after = try client.send(.getChanges())
        #expect(Array(after.prefix(2)) == changes)
        #expect(after.last?.method == "Pop" && after.last?.arguments == [] && after.last?.string(.top) == "orange")
    }

    @Test func aReconcileAfterAReloadCallNamesThatCall() throws {
        guard EndToEnd.navdAvailable else { return }
        let navd = try NavdWithApps()
        let client = try navd.connect()
        let shop = "/org/navd/Navigator1/apps/shop"
        try client.push("product", [("sku", .int64(1))], at: shop)   // 2
        try client.push("reviews", at: shop)                          // 3
        try navd.write("shop", AppRouteFiles.shopWithoutReviews)
        #expect(try client.reload(at: shop) == 4)
        func changes() throws -> [RecordedChange] {
            try [RecordedChange](dbusValue: try #require(try client.navigator("GetChanges", [.uint64(0), .uint32(10)], at: shop).first))
        }
        let reconcile = try #require(try changes().last)
        #expect(reconcile.revision == 4 && reconcile.cause == "reconcile" && reconcile.method == "")
        #expect(reconcile.string(.reason) == "reload" && reconcile.details["args"] == nil)
        #expect(reconcile.string(.sender) == client.uniqueName && reconcile.uint32(.uid) == getuid())
        #expect(reconcile.uint32(.pid) == UInt32(getpid()) && reconcile.string(.command) == Self.ownCommand)
        #expect(reconcile.string(.top) == "product" && reconcile.string(.tab) != nil)
        let push = try #require(try changes().first)
        #expect(push.method == "Push" && push.arguments.first == .string("product"))
        // Kept with the snapshot the reload wrote, across kill -9.
        navd.navd.kill9()
        try navd.navd.start()
        #expect(try changes().last == reconcile)
        // An edit made while navd is down: the reconcile at start, which no call asked for.
        #expect(navd.navd.stop() == 0)
        try navd.write("shop", AppRouteFiles.shopWithoutReviews.replacingOccurrences(
            of: "  product:\n    title: Product\n    params:\n      sku: { type: int, required: true }\n", with: ""))
        try navd.navd.start()
        let atStart = try #require(try changes().last)
        #expect(atStart.revision == 5 && atStart.cause == "reconcile" && atStart.method == "", "\(atStart)")
        #expect(atStart.string(.reason) == "start" && atStart.details["sender"] == nil && atStart.details["uid"] == nil)
        #expect(atStart.string(.top) == "catalog")
    }

    @Test func busctlAndGdbusReadIt() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        let call = ["--address=\(fixture.bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName]
        let read = try ChildProcess.run("/usr/bin/busctl", call + ["GetChanges", "tu", "0", "10"], timeout: 20)
        #expect(read.status == 0 && read.stdout.hasPrefix("a(tsxsa{sv}) 1 2 \"push\" "), "\(read)")
        #expect(read.stdout.contains("\"Push\"") && read.stdout.contains("\"args\" av 2 s \"orange\" a{sv} 0"), "\(read)")
        let gdbus = try ChildProcess.run("/usr/bin/gdbus", [
            "call", "--address", fixture.bus.address, "--dest", Navigator.busName, "--object-path", Navigator.objectPath.rawValue,
            "--method", "\(Navigator.interfaceName).GetChanges", "uint64 0", "uint32 10"], timeout: 20)
        #expect(gdbus.status == 0 && gdbus.stdout.hasPrefix("([(uint64 2, 'push', int64 "), "\(gdbus)")
        #expect(gdbus.stdout.contains("'Push', {'args': <[<'orange'>, <@a{sv} {}>]>"), "\(gdbus)")
        let wrong = try ChildProcess.run("/usr/bin/busctl", call + ["GetChanges", "t", "0"], timeout: 20)
        #expect(wrong.status != 0 && wrong.stderr.contains("argument"), "\(wrong)")
    }
}
