import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// A route file that is gone is not a different graph (`docs/durability.md#gone-route-files`): the default navigator
/// loaded from `~/.config/navd/routes.yaml` keeps its graph and state when a reload finds the file
/// gone, so an editor that saves by moving the file away and writing it back leaves the state
/// exactly as it was. A navigator that was never loaded from a file (the demo graph) still picks
/// up a `routes.yaml` that appears.
@Suite("navd gone route file", .timeLimit(.minutes(2)), .enabled(if: EndToEnd.navdAvailable))
struct NavdGoneRouteFileTests {
    let main = NavdWithApps.path(nil)

    /// What an editor-save test works on: navd, a client, the state before the save, the route
    /// file and where the editor moved it.
    struct EditorSave {
        let navd: NavdWithApps
        let client: Connection
        let before: NavigatorSnapshot
        let file: String
        let away: String
    }

    /// A navd with `~/.config/navd/routes.yaml` holding the mail graph (`root: inbox`, route
    /// `message`), its state `inbox > message > message` with undo possible; then the file is
    /// moved away, as an editor does before it writes the new one.
    func editorSaveUnderWay() throws -> EditorSave {
        let navd = try NavdWithApps(apps: [:], start: false)
        let file = routesFile(navd)
        try AppRouteFiles.mail.write(toFile: file, atomically: true, encoding: .utf8)
        try navd.navd.start()
        let client = try navd.connect()
        try client.push("message", [("id", .string("m1"))], at: main)
        try client.push("message", [("id", .string("m2"))], at: main)
        #expect(try client.navigatorRoutes(at: main) == ["inbox", "message", "message"])
        #expect(try client.property("CanUndo", at: main).boolValue == true)
        let save = EditorSave(
            navd: navd, client: client, before: try client.snapshot(at: main), file: file,
            away: navd.navd.configDirectory + "/routes.yaml.saving")
        #expect(rename(file, save.away) == 0)
        return save
    }

    func routesFile(_ navd: NavdWithApps) -> String { navd.navd.configDirectory + "/routes.yaml" }

    /// How many times navd's log says `text`.
    func occurrences(_ text: String, in navd: NavdWithApps) -> Int {
        navd.navd.stderr.components(separatedBy: text).count - 1
    }

    /// Waits (at most 30 s) until navd's log says `text` `count` times.
    func waitForLog(_ text: String, count: Int, in navd: NavdWithApps) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while occurrences(text, in: navd) < count {
            guard Date() < deadline, navd.navd.isRunning else { return false }
            usleep(10_000)
        }
        return true
    }

    @Test func anEditorSaveWithASIGHUPWhileTheFileIsAwayLeavesTheStateExactlyAsItWas() throws {
        let save = try editorSaveUnderWay()
        let (navd, client) = (save.navd, save.client)
        #expect(kill(navd.navd.pid, SIGHUP) == 0)
        #expect(waitForLog("refused route file: \(save.file): file is gone", count: 1, in: navd), "\(navd.navd.stderr)")
        #expect(try client.snapshot(at: main) == save.before, "nothing changed while the file was away")
        #expect(rename(save.away, save.file) == 0)
        #expect(kill(navd.navd.pid, SIGHUP) == 0)
        // The second reload finds the very bytes the graph came from and applies nothing, on
        // the loop's turn that logs it; a call after that line is answered after it.
        #expect(waitForLog("reloading every route file (SIGHUP)", count: 2, in: navd))
        #expect(try client.snapshot(at: main) == save.before, "revision, tree, history, routes and undo as they were")
        #expect(try client.navigator("Undo", at: main)[0].uint64Value == 4, "undo kept")
        #expect(try client.navigatorRoutes(at: main) == ["inbox", "message"])
    }

    @Test func anEditorSaveWithReloadCallsWhileTheFileIsAwayLeavesTheStateExactlyAsItWas() throws {
        let save = try editorSaveUnderWay()
        let client = save.client
        let refused = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: main))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains("\(save.file): file is gone"), "\(refused.message)")
        #expect(try client.snapshot(at: main) == save.before, "graph and state kept")
        #expect(rename(save.away, save.file) == 0)
        #expect(try client.reload(at: main) == save.before.revision)
        #expect(try client.snapshot(at: main) == save.before, "revision, tree, history, routes and undo as they were")
        #expect(try client.navigator("Undo", at: main)[0].uint64Value == 4, "undo kept")
    }

    @Test func aNavigatorOnTheDemoGraphPicksUpARoutesFileThatAppears() throws {
        let navd = try NavdWithApps(apps: [:])
        let client = try navd.connect()
        #expect(try client.routeNames(at: main).contains("orange"), "the demo graph")
        try AppRouteFiles.mail.write(toFile: routesFile(navd), atomically: true, encoding: .utf8)
        try client.reload(at: main)
        #expect(try client.routeNames(at: main) == ["inbox", "message", "compose"])
        #expect(try client.navigatorRoutes(at: main) == ["inbox"], "the tree was repaired to the new graph")
    }
}
