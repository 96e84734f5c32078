import Foundation
@testable import NavdClient
import TestSupport
import Testing

/// navwatch `--app` (and the update sequence of an `AsyncNavigator` of an app) against a real navd with an
/// apps folder: it shows that app's changes only, the gone marker when the app's file is removed and navd
/// reloads, and the app again when the file is back.
@Suite("navwatch follows an app", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct NavwatchAppsTests {
    @Test("--app shows that app's changes only, the gone marker when its file goes, and the app where it was when it is back")
    func goneAndBack() throws {
        let fixture = try NavctlAppsFixture(keepsState: true)
        let lines = try startNavwatch(["--app", "shop", "--lines"], bus: fixture.bus)
        let json = try startNavwatch(["--app", "shop", "--json"], bus: fixture.bus)
        #expect(lines.waitForLines(1) == ["1 state home"])
        #expect(json.waitForLines(1).count == 1)

        #expect(try fixture.navctl("push", "orange").status == 0, "the default navigator's change is not shop's")
        #expect(try fixture.navctl("--app", "blog", "push", "post").status == 0, "nor is blog's")
        #expect(try fixture.navctl("--app", "shop", "push", "cart").status == 0)
        #expect(lines.waitForLines(2) == ["1 state home", "2 push home > cart"])
        json.waitForLines(2)

        try FileManager.default.moveItem(atPath: fixture.file("shop"), toPath: fixture.directory + "/shop.away")
        #expect(try fixture.navctl("reload").status == 0)
        #expect(lines.waitForLines(3).last == "-- navd gone")
        json.waitForLines(3)
        #expect(try fixture.navctl("--app", "shop", "state").status == 1, "the app is off the bus")

        try FileManager.default.moveItem(atPath: fixture.directory + "/shop.away", toPath: fixture.file("shop"))
        #expect(try fixture.navctl("reload").status == 0)
        #expect(lines.waitForLines(4).count == 4)
        #expect(try fixture.navctl("--app", "shop", "push", "cart").status == 0)
        lines.waitForLines(5)
        json.waitForLines(6)
        #expect(lines.stop(with: SIGINT) == 0)
        #expect(json.stop(with: SIGTERM) == 0)

        #expect(lines.outputLines == [
            "1 state home", "2 push home > cart", "-- navd gone", "2 restore home > cart", "3 push home > cart > cart",
        ])
        expectJSONLines(json.outputLines, [
            ##"{"revision": 1, "cause": "state", "tab": "", "path": [{"id": "#1", "route": "home", "presentation": "root", "params": {}}], "top": "home", "depth": 1}"##,
            ##"{"revision": 2, "cause": "push", "tab": "", "path": [{"id": "#1", "route": "home", "presentation": "root", "params": {}}, {"id": "#2", "route": "cart", "presentation": "push", "params": {}}], "top": "cart", "depth": 2}"##,
            ##"{"event": "gone", "app": "shop"}"##,
            ##"{"event": "back", "app": "shop"}"##,
            ##"{"revision": 2, "cause": "restore", "tab": "", "path": [{"id": "#1", "route": "home", "presentation": "root", "params": {}}, {"id": "#2", "route": "cart", "presentation": "push", "params": {}}], "top": "cart", "depth": 2}"##,
            ##"{"revision": 3, "cause": "push", "tab": "", "path": [{"id": "#1", "route": "home", "presentation": "root", "params": {}}, {"id": "#2", "route": "cart", "presentation": "push", "params": {}}, {"id": "#3", "route": "cart", "presentation": "push", "params": {}}], "top": "cart", "depth": 3}"##,
        ])
    }

    @Test("--app on an app that is not there yet: the gone marker, then the app once its file is added and reloaded")
    func appearsLater() throws {
        let fixture = try NavctlAppsFixture()
        let once = try ChildProcess.run(
            Products.url("navwatch"), ["--address", fixture.bus.address, "--app", "notes", "--once"],
            environment: fixture.bus.environment, timeout: 30)
        #expect(once.status == 1, "\(once)")
        #expect(once.stdout == "-- navd gone\n")
        #expect(once.stderr.contains("blog, shop"), "navd's message names the apps: \(once.stderr)")

        let watch = try startNavwatch(["--app", "notes", "--lines"], bus: fixture.bus)
        #expect(watch.waitForLines(1) == ["-- navd gone"])
        try fixture.write("notes", "root: list\nroutes:\n  list: {}\n  item: {}\n")
        #expect(try fixture.navctl("reload").status == 0)
        #expect(watch.waitForLines(2) == ["-- navd gone", "1 start list"])
        #expect(try fixture.navctl("--app", "notes", "push", "item").status == 0)
        #expect(watch.waitForLines(3).last == "2 push list > item")
        #expect(watch.stop(with: SIGTERM) == 0)

        let invalid = try ChildProcess.run(
            Products.url("navwatch"), ["--address", fixture.bus.address, "--app", "no-pe", "--once"],
            environment: fixture.bus.environment, timeout: 30)
        #expect(invalid.status == 2, "\(invalid)")
        #expect(invalid.stderr.contains("may hold only letters"), "\(invalid.stderr)")
    }

    @Test("an AsyncNavigator of an app yields that app's states only, navdGone when it goes, its state when it is back")
    func asyncUpdates() async throws {
        let fixture = try NavctlAppsFixture(keepsState: true)
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), app: "shop", timeoutMilliseconds: 10_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        #expect(try await updates.next()?.state?.path.map(\.route) == ["home"])
        #expect(try fixture.navctl("push", "orange").status == 0)
        _ = try await navigator.send(.push("cart"))
        let pushed = try await navigator.send(.getState)
        #expect(try await updates.next() == .state(StateChange(cause: "push", state: pushed)))

        try fixture.remove("shop")
        #expect(try fixture.navctl("reload").status == 0)
        #expect(try await updates.next() == .navdGone)
        do {
            _ = try await navigator.send(.getState)
            Issue.record("a removed app answered")
        } catch {
            #expect(error.shortName == "org.freedesktop.DBus.Error.UnknownObject", "\(error)")
        }
        try fixture.write("shop", NavctlAppsFixture.shop)
        #expect(try fixture.navctl("reload").status == 0)
        let back = try #require(try await updates.next())
        guard case .state(let change) = back else { Issue.record("not a state: \(back)"); return }
        #expect(change.cause == "restore")
        #expect(change.state.path.map(\.route) == ["home", "cart"])
        #expect(try await navigator.send(.apps).map(\.name) == ["blog", "shop"])
        #expect(try await navigator.send(.reload) == 2)
    }
}
