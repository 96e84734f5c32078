import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// A start with the route file gone (`docs/durability.md#gone-route-files`): the state made under that file is served
/// under the graph saved with it, with a warning naming the file; the file put back and reloaded
/// changes nothing; the embedded demo graph never replaces it. Before, navd served the demo graph
/// and repaired the user's tree away.
@Suite("navd start with the route file gone", .serialized, .timeLimit(.minutes(3)), .enabled(if: EndToEnd.navdAvailable))
struct NavdStartWithGoneRouteFileTests {
    let main = Navigator.objectPath.rawValue

    /// navd on `~/.config/navd/routes.yaml` holding the mail graph, state `inbox > message >
    /// message` (undo possible), killed, the file removed, started again.
    func crashedWithRoutesYamlGone() throws -> (navd: NavdCrashEdit, before: NavigatorSnapshot) {
        let navd = try NavdCrashEdit(routes: AppRouteFiles.mail, atDefaultPlace: true)
        try navd.client.push("message", [("id", .string("m1"))], at: main)
        try navd.client.push("message", [("id", .string("m2"))], at: main)
        let before = try navd.snapshot()
        try navd.crashEditAndStart(nil)
        return (navd, before)
    }

    @Test func theSavedGraphServesWithAWarningAndTheStateIsIntact() throws {
        let (navd, before) = try crashedWithRoutesYamlGone()
        #expect(try navd.snapshot() == before, "revision, tree, history, routes and undo as they were")
        #expect(try navd.client.routeNames(at: main) == ["inbox", "message", "compose"], "the mail graph, not the demo's")
        #expect(
            navd.logLines("warning").contains { $0.contains("route file \(navd.routeFile) is gone") },
            "the warning names the file: \(navd.navd.stderr)")
        #expect(try navd.client.push("message", [("id", .string("m3"))], at: main) == before.revision + 1, "changes are accepted under it")
        #expect(try navd.client.navigator("Undo", at: main)[0].uint64Value == before.revision + 2, "undo kept")
    }

    @Test func theFilePutBackAndReloadedChangesNothing() throws {
        let (navd, before) = try crashedWithRoutesYamlGone()
        try navd.write(AppRouteFiles.mail)
        #expect(try navd.client.reload(at: main) == before.revision)
        #expect(try navd.snapshot() == before)
    }

    @Test func aReloadWhileItIsStillGoneSaysSoAndKeepsEverything() throws {
        let (navd, before) = try crashedWithRoutesYamlGone()
        let refused = try #require(navd.client.navigatorFailure(NavigatorMethod.reload.name, at: main))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains("\(navd.routeFile): file is gone"), "\(refused.message)")
        #expect(try navd.snapshot() == before)
    }

    @Test func theDemoGraphNeverReplacesTheSavedStateAcrossRestarts() throws {
        let (navd, before) = try crashedWithRoutesYamlGone()
        // A clean stop writes a snapshot under the graph it served; the next start still finds
        // it made under routes.yaml, which is still gone.
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        #expect(try navd.snapshot() == before)
        navd.navd.kill9()
        try navd.navd.start()
        #expect(try navd.snapshot() == before)
        #expect(try navd.client.routeNames(at: main) == ["inbox", "message", "compose"])
    }

    @Test func anEditedFileBackAfterAStartWithoutItRepairsAsAReload() throws {
        let (navd, before) = try crashedWithRoutesYamlGone()
        try navd.write(AppRouteFiles.mail.replacingOccurrences(of: "  message:\n    params:\n      id: { type: string, required: true }\n", with: ""))
        #expect(try navd.client.reload(at: main) == before.revision + 1)
        #expect(try navd.routes() == ["inbox"])
        #expect(try navd.history().first?.cause == "reconcile")
    }

    @Test func routesGivenOnTheCommandLineAndGoneServeTheStateMadeUnderThem() throws {
        let navd = try NavdCrashEdit(routes: AppRouteFiles.mail)
        try navd.client.push("message", [("id", .string("m1"))], at: main)
        let before = try navd.snapshot()
        try navd.crashEditAndStart(nil)
        #expect(try navd.snapshot() == before)
        #expect(navd.logLines("warning").contains { $0.contains("route file \(navd.routeFile) is gone") }, "\(navd.navd.stderr)")
    }

    @Test func aRelativeRoutesFileNamedDemoIsRecordedByItsFullPathNotTakenForTheDemoGraph() throws {
        // `--routes demo` from the file's folder: the state must name the file, not the embedded demo graph
        // (whose recorded origin is the word "demo"), so a start with it gone still serves the mail graph.
        let bus = try PrivateBus()
        defer { bus.stop() }
        let folder = TemporaryDirectory.make("navd-relative-routes")
        defer { TemporaryDirectory.remove(folder) }
        let state = folder + "/state"
        try AppRouteFiles.mail.write(toFile: folder + "/demo", atomically: true, encoding: .utf8)
        let inFolder: (String) -> [String] = { ["/bin/sh", "-c", "cd \(Spawn.shellQuoted(folder)) && exec \($0)"] }
        let navd = NavdProcess(bus: bus, stateDirectory: state, extraArguments: ["--routes", "demo"], launcher: inFolder)
        try navd.start()
        let client = try Connection(.address(bus.address))
        try client.push("message", [("id", .string("m1"))], at: main)
        navd.kill9()
        try FileManager.default.removeItem(atPath: folder + "/demo")
        try navd.start()
        #expect(try client.routeNames(at: main) == ["inbox", "message", "compose"], "the mail graph, not the demo's: \(navd.stderr)")
        #expect(try client.navigatorRoutes(at: main) == ["inbox", "message"])
        #expect(navd.stderr.contains("route file \(folder)/demo is gone"), "\(navd.stderr)")
    }

    @Test func routesGivenOnTheCommandLineAndGoneAreRefusedWhenTheStateWasMadeUnderAnotherGraph() throws {
        // The state is made under the demo graph; then navd is told to read a file that is not there.
        let bus = try PrivateBus()
        defer { bus.stop() }
        let state = NavdProcess.temporaryStateDirectory()
        defer { TemporaryDirectory.remove(state) }
        let first = try NavdProcess.started(bus: bus, stateDirectory: state)
        _ = try Connection(.address(bus.address)).navigator("Push", [.string("orange"), .emptyParams])
        first.kill9()
        let missing = state + "/no-such-routes.yaml"
        let second = NavdProcess(bus: bus, stateDirectory: state, extraArguments: ["--routes", missing])
        #expect(throws: (any Error).self) { try second.start(timeout: 10) }
        #expect(second.child?.exitStatus == 1)
        #expect(second.stderr.contains("\(missing): file is gone"), "\(second.stderr)")
        #expect(second.stderr.contains("made under the demo graph"), "\(second.stderr)")
        // Nothing was touched: the state made under the demo graph is still there.
        try first.start()
        #expect(try Connection(.address(bus.address)).navigatorRoutes() == ["red", "orange"])
    }
}
