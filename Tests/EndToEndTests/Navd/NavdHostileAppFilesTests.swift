import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// Things in the apps folder that are named like a route file but are not one: a FIFO (which
/// blocks whoever opens it for reading until a writer comes) and a folder named `NAME.yaml`. Each
/// is refused by file and reason, at start (logged, the app kept out) and on every Reload, and
/// the other apps are served meanwhile; navd still stops on SIGTERM.
@Suite("navd hostile files in the apps folder", .timeLimit(.minutes(2)), .enabled(if: EndToEnd.navdAvailable))
struct NavdHostileAppFilesTests {
    let mail = NavdWithApps.path("mail")
    let main = NavdWithApps.path(nil)

    @Test func aFIFOAndAFolderNamedLikeRouteFilesAreRefusedAtStartAndOnReloadWhileTheOtherAppsAreServed() throws {
        let navd = try NavdWithApps(apps: ["mail": AppRouteFiles.mail], start: false)
        #expect(mkfifo(navd.file("pipe"), 0o600) == 0)
        #expect(mkdir(navd.file("folder"), 0o700) == 0)
        // Before RouteFileSource, navd opened the FIFO on its loop thread and never answered.
        try navd.navd.start()
        let client = try navd.connect()

        let log = navd.navd.stderr
        #expect(log.contains(navd.file("pipe") + ": is a FIFO, not a regular file"), "the log names the FIFO: \(log)")
        #expect(log.contains(navd.file("folder") + ": is a folder, not a regular file"), "the log names the folder: \(log)")
        for app in ["pipe", "folder"] {
            #expect(client.navigatorFailure("GetState", at: NavdWithApps.path(app))?.name == DBusErrorName.unknownObject,
                    "\(app) is kept out")
        }
        #expect(try client.push("message", [("id", .string("a"))], at: mail) == 2)

        // Reload of every file: both refused by name and reason, the others still reloaded.
        try navd.write("mail", AppRouteFiles.mailWithArchive)
        let refused = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: main))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains(navd.file("pipe") + ": is a FIFO, not a regular file"), "\(refused.message)")
        #expect(refused.message.contains(navd.file("folder") + ": is a folder, not a regular file"), "\(refused.message)")
        #expect(try client.push("archive", at: mail) == 3, "mail's edit took effect and its calls are answered")
        #expect(try client.revision(at: main) == 1)

        // A second Reload refuses them again: nothing was left waiting on the FIFO.
        let again = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: main))
        #expect(again.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(try client.push("inbox", at: mail) == 4)

        #expect(navd.navd.stop(timeout: 5) == 0, "navd stops on SIGTERM: \(navd.navd.stderr)")
    }

    @Test func anAppWhoseFileBecomesAFIFOKeepsItsGraphAndStateOnReload() throws {
        let navd = try NavdWithApps(apps: ["mail": AppRouteFiles.mail, "shop": AppRouteFiles.shop])
        let client = try navd.connect()
        try client.push("message", [("id", .string("a"))], at: mail)
        let before = try client.snapshot(at: mail)
        try FileManager.default.removeItem(atPath: navd.file("mail"))
        #expect(mkfifo(navd.file("mail"), 0o600) == 0)

        let refused = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: mail))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains(navd.file("mail") + ": is a FIFO"), "\(refused.message)")
        #expect(try client.snapshot(at: mail) == before, "graph, tree, history and undo are as they were")
        #expect(try client.push("product", [("sku", .int64(1))], at: NavdWithApps.path("shop")) == 2)
        #expect(navd.navd.stop(timeout: 5) == 0)
    }

    @Test func checkRoutesRefusesAFIFOAndAFolderByNameWithoutOpeningThem() throws {
        let folder = TemporaryDirectory.make("navd-check-routes")
        defer { TemporaryDirectory.remove(folder) }
        #expect(mkfifo(folder + "/pipe.yaml", 0o600) == 0)
        #expect(mkdir(folder + "/folder.yaml", 0o700) == 0)
        for (file, kind) in [("pipe.yaml", "a FIFO"), ("folder.yaml", "a folder")] {
            let result = try ChildProcess.run(NavdProcess.executable, ["--check-routes", folder + "/" + file], timeout: 30)
            #expect(result.status == 1, "\(file): \(result.stderr)")
            #expect(result.stderr.contains("\(folder)/\(file): is \(kind), not a regular file"), "\(result.stderr)")
        }
    }
}
