import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// SIGHUP, SIGTERM and SIGINT mean the same from navd's first instruction (`docs/reliability.md#signals-at-start-up`): a SIGHUP
/// while navd starts is one reload once it serves; a SIGTERM or SIGINT stops it cleanly (exit 0).
///
/// Start-up is made long with many apps, each with a store of its own to open and restore. The
/// signals are sent once navd owns its bus name, which it takes before it reads any state, so they
/// land in the middle of its start-up. (Before that is the dynamic loader, where any program dies
/// of a SIGHUP; navd installs its handlers before it reads the route file.)
@Suite("navd signals during start-up", .timeLimit(.minutes(3)), .enabled(if: EndToEnd.navdAvailable))
struct NavdStartupSignalTests {
    static let main = NavdWithApps.path(nil)

    /// 120 apps, each a small route file; opening their stores is most of navd's start-up.
    static let manyApps = Dictionary(uniqueKeysWithValues: (0..<120).map { ("app\($0)", AppRouteFiles.notes) })

    /// A navd with `manyApps` and a `routes.yaml` (the mail graph), not started.
    static func slowStartingNavd() throws -> NavdWithApps {
        let navd = try NavdWithApps(apps: manyApps, start: false)
        try AppRouteFiles.mail.write(toFile: routesFile(navd), atomically: true, encoding: .utf8)
        return navd
    }

    static func routesFile(_ navd: NavdWithApps) -> String { navd.navd.configDirectory + "/routes.yaml" }

    /// Launches navd and returns once it owns its bus name (it is then reading its state and
    /// loading its apps), with a client connection.
    static func launchUntilNameOwned(_ navd: NavdWithApps) throws -> Connection {
        let client = try navd.connect()
        try navd.navd.launch()
        let deadline = Date().addingTimeInterval(60)
        while try client.nameOwner(Navigator.busName) == nil {
            guard navd.navd.isRunning else { throw HarnessError("navd exited during start-up: \(navd.navd.stderr)") }
            guard Date() < deadline else { throw HarnessError("navd did not take its name within 60 s: \(navd.navd.stderr)") }
            usleep(500)
        }
        return client
    }

    /// Sends `GetState` to the default navigator without waiting; the call's serial.
    static func sendGetState(_ client: Connection) throws -> UInt32 {
        let serial = try client.send(Message.navigatorCall("GetState", path: main))
        client.flush()
        return serial
    }

    /// Polls `GetRoutes` of the default navigator until it lists `route` (at most 30 s).
    static func waitForRoute(_ route: String, _ client: Connection) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try client.routeNames(at: main).contains(route) { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func aSIGHUPStormFromTheMomentNavdOwnsItsNameIsAReloadOnceItServes() throws {
        let navd = try Self.slowStartingNavd()
        let client = try Self.launchUntilNameOwned(navd)
        try AppRouteFiles.mailWithArchive.write(toFile: Self.routesFile(navd), atomically: true, encoding: .utf8)
        let probe = try Self.sendGetState(client)
        var sentBeforeServing = 0
        var answered = false
        let deadline = Date().addingTimeInterval(90)
        while !answered, navd.navd.isRunning, Date() < deadline {
            kill(navd.navd.pid, SIGHUP)
            sentBeforeServing += 1
            answered = client.waitForMessage(timeout: 0.001) { $0.replySerial == probe } != nil
        }
        print("start-up signals: \(sentBeforeServing) SIGHUPs sent from the moment navd owned its name until it served")
        #expect(navd.navd.isRunning, "navd died of a SIGHUP during start-up (\(sentBeforeServing) sent): \(navd.navd.stderr)")
        #expect(answered, "navd serves")
        #expect(sentBeforeServing > 1, "SIGHUPs landed during start-up")
        #expect(try Self.waitForRoute("archive", client), "the SIGHUPs reloaded routes.yaml once navd served")
        #expect(try client.push("message", [("id", .string("x"))], at: Self.main) == 2)
        #expect(navd.navd.stop(timeout: 5) == 0)
    }

    @Test func oneSIGHUPDuringStartUpIsOneReloadOnceNavdServes() throws {
        let navd = try Self.slowStartingNavd()
        let client = try Self.launchUntilNameOwned(navd)
        let probe = try Self.sendGetState(client)
        try AppRouteFiles.mailWithArchive.write(toFile: Self.routesFile(navd), atomically: true, encoding: .utf8)
        let servingAlready = client.waitForMessage(timeout: 0) { $0.replySerial == probe } != nil
        #expect(kill(navd.navd.pid, SIGHUP) == 0)
        #expect(!servingAlready, "the SIGHUP was sent before navd served (start-up was too short to test)")
        #expect(client.waitForMessage(timeout: 60) { $0.replySerial == probe } != nil, "navd serves: \(navd.navd.stderr)")
        #expect(try Self.waitForRoute("archive", client), "the SIGHUP reloaded routes.yaml once navd served")
        let reloads = navd.navd.stderr.components(separatedBy: "reloading every route file (SIGHUP)").count - 1
        #expect(reloads == 1, "one reload: \(navd.navd.stderr)")
        #expect(navd.navd.stop(timeout: 5) == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalDuringStartUpStopsNavdCleanly(_ stopSignal: Int32) throws {
        let navd = try Self.slowStartingNavd()
        let client = try Self.launchUntilNameOwned(navd)
        #expect(kill(navd.navd.pid, stopSignal) == 0)
        let status = navd.navd.child?.waitForExit(timeout: 60)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none"): \(navd.navd.stderr)")
        #expect(navd.navd.stderr.contains("asked to stop during start-up"), "\(navd.navd.stderr)")
        #expect(try client.nameOwner(Navigator.busName) == nil, "the name is released")

        // Nothing was damaged: the next start serves every app.
        try navd.navd.start(timeout: 60)
        #expect(try client.revision(at: NavdWithApps.path("app119")) == 1)
        #expect(try client.push("message", [("id", .string("x"))], at: Self.main) == 2)
    }
}
