import Foundation
import NavdClient
import TestSupport
import Testing

/// A private bus with a navd serving the demo graph as its default navigator and two apps from a
/// temporary apps folder (`--apps-dir`): `shop` (home, cart) and `blog` (feed, post). Everything is
/// stopped by pid and removed when the fixture is released.
final class NavctlAppsFixture: OnPrivateBus {
    let bus: PrivateBus
    let navd: NavdProcess
    /// The scratch directory: `apps/` (the route files) and `state/` (when asked for).
    let directory: String
    /// The apps folder navd reads.
    let appsDirectory: String

    static let shop = "root: home\nroutes:\n  home: {}\n  cart: {}\n"
    static let blog = "root: feed\nroutes:\n  feed: {}\n  post: {}\n"
    /// A shop route file that does not load: line 4 names a param type that does not exist.
    static let brokenShop = "root: home\nroutes:\n  home: {}\n  cart: { params: { id: { type: nosuch } } }\n"

    /// Starts the bus and navd with the two apps (and a state directory when `keepsState`).
    init(keepsState: Bool = false) throws {
        directory = TemporaryDirectory.make("navd-apps-test")
        appsDirectory = directory + "/apps"
        try FileManager.default.createDirectory(atPath: appsDirectory, withIntermediateDirectories: true)
        bus = try PrivateBus()
        var state: String?
        if keepsState {
            state = directory + "/state"
            try FileManager.default.createDirectory(atPath: state!, withIntermediateDirectories: true)
        }
        try Self.shop.write(toFile: appsDirectory + "/shop.yaml", atomically: true, encoding: .utf8)
        try Self.blog.write(toFile: appsDirectory + "/blog.yaml", atomically: true, encoding: .utf8)
        navd = try NavdProcess.started(bus: bus, stateDirectory: state, extraArguments: ["--apps-dir", appsDirectory])
    }

    deinit {
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(directory)
    }

    /// The route file of `app`.
    func file(_ app: String) -> String { appsDirectory + "/" + app + ".yaml" }

    /// Writes `app`'s route file.
    func write(_ app: String, _ text: String) throws {
        try text.write(toFile: file(app), atomically: true, encoding: .utf8)
    }

    /// Removes `app`'s route file.
    func remove(_ app: String) throws {
        try FileManager.default.removeItem(atPath: file(app))
    }

    /// The state of `app` (nil: the default navigator) as navctl prints it in JSON.
    func state(_ app: String?) throws -> JSONValue {
        let result = try navctl((app.map { ["--app", $0] } ?? []) + ["state", "--json"])
        #expect(result.status == 0, "\(result)")
        return try result.json()
    }
}

/// `navctl --app`, `navctl apps`, `navctl reload` and the completion of app names, against a real navd with
/// an apps folder.
@Suite("navctl drives apps", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct NavctlAppsTests {
    @Test("--app acts on that app only; the default navigator and the other app stay as they were, and back")
    func appsApart() throws {
        let fixture = try NavctlAppsFixture()
        let push = try fixture.navctl("--app", "shop", "push", "cart")
        #expect(push.status == 0, "\(push)")
        #expect(push.lines == ["2 push home > cart"])
        #expect(try fixture.state("shop").pathRoutes == ["home", "cart"])
        #expect(try fixture.state(nil).integer("revision") == 1)
        #expect(try fixture.state(nil).pathRoutes == ["red"])
        #expect(try fixture.state("blog").integer("revision") == 1)

        // The fast path and ArgumentParser, --app after the command's name: the default navigator this time.
        #expect(try fixture.navctl("push", "orange").status == 0)
        let slow = try fixture.navctl("push", "post", "--app", "blog", environment: ["NAVCTL_NO_FAST_PATH": "1"])
        #expect(slow.status == 0, "\(slow)")
        #expect(try fixture.state(nil).pathRoutes == ["red", "orange"])
        #expect(try fixture.state("shop").integer("revision") == 2)
        #expect(try fixture.state("blog").pathRoutes == ["feed", "post"])
        // A route of another app is not this one's.
        let foreign = try fixture.navctl("--app", "shop", "push", "orange")
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("UnknownRoute"), "\(foreign)")
        #expect(try fixture.navctl("--app", "shop", "undo").status == 0)
        #expect(try fixture.state("shop").pathRoutes == ["home"])
        #expect(try fixture.state(nil).pathRoutes == ["red", "orange"], "undo on an app leaves the default alone")
    }

    @Test("apps lists name, path, revision and top, one line each, and as JSON; the default navigator is not an app")
    func listing() throws {
        let fixture = try NavctlAppsFixture()
        #expect(try fixture.navctl("--app", "shop", "push", "cart").status == 0)
        try fixture.navctl("apps").expectOutput("""
            blog  /org/navd/Navigator1/apps/blog  1  feed
            shop  /org/navd/Navigator1/apps/shop  2  cart

            """)
        try fixture.navctl("apps", "--json").expectJSON("""
            [{"name": "blog", "path": "/org/navd/Navigator1/apps/blog", "revision": 1, "top": "feed", "topId": "#1", "depth": 1, "tab": "", "access": {}},
             {"name": "shop", "path": "/org/navd/Navigator1/apps/shop", "revision": 2, "top": "cart", "topId": "#2", "depth": 2, "tab": "", "access": {}}]
            """)
        #expect(try fixture.navctl("apps", "--names").lines == ["blog", "shop"])
        // --app does not change the listing.
        #expect(try fixture.navctl("--app", "blog", "apps", "--names").lines == ["blog", "shop"])
    }

    @Test("reload prints the revision; a broken file is refused with FILE:LINE and exit 1, and nothing changes")
    func reload() throws {
        let fixture = try NavctlAppsFixture()
        #expect(try fixture.navctl("--app", "shop", "push", "cart").status == 0)
        try fixture.navctl("reload").expectOutput("1 reload\n")  // the default navigator's revision
        let shop = try fixture.navctl("--app", "shop", "reload", "--json")
        #expect(shop.status == 0, "\(shop)")
        #expect(try shop.json() == .object([("revision", .int(2)), ("cause", .string("reload"))]))

        try fixture.write("shop", NavctlAppsFixture.brokenShop)
        for arguments in [["reload"], ["--app", "shop", "reload"]] {
            let refused = try fixture.navctl(arguments)
            #expect(refused.status == 1, "\(arguments): \(refused)")
            #expect(refused.stdout.isEmpty)
            let lines = refused.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("navctl: ") == true, "\(refused)")
            #expect(lines.first?.hasSuffix("[org.navd.Navigator1.Error.InvalidRouteFile]") == true, "\(refused)")
            #expect(lines.contains { $0.hasPrefix(fixture.file("shop") + ":4: ") && $0.contains("nosuch") },
                    "each refused file on a line of its own, as FILE:LINE: KEY: PROBLEM: \(refused)")
        }
        #expect(try fixture.state("shop").pathRoutes == ["home", "cart"], "a refused file changes nothing")
        #expect(try fixture.state("shop").integer("revision") == 2)

        // A new file becomes an app on reload; a removed one goes.
        try fixture.write("shop", NavctlAppsFixture.shop)
        try fixture.write("notes", "root: list\nroutes:\n  list: {}\n")
        try fixture.remove("blog")
        #expect(try fixture.navctl("reload").status == 0)
        #expect(try fixture.navctl("apps", "--names").lines == ["notes", "shop"])
        #expect(try fixture.state("notes").pathRoutes == ["list"])
    }

    @Test("an invalid app name is a usage error saying why; an app navd does not serve is refused naming the apps")
    func wrongApps() throws {
        let fixture = try NavctlAppsFixture()
        for arguments in [["--app", "no-pe", "state"], ["push", "cart", "--app", "no-pe"], ["--app", "", "state"]] {
            let usage = try fixture.navctl(arguments)
            #expect(usage.status == 2, "\(arguments): \(usage)")
            #expect(usage.stderr.contains("--app"), "\(usage)")
        }
        let invalid = try fixture.navctl("--app", "no-pe", "state")
        #expect(invalid.stderr.contains("may hold only letters A-Z and a-z, digits and '_'"), "\(invalid)")
        let unknown = try fixture.navctl("--app", "nope", "push", "cart")
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(unknown)")
        #expect(unknown.stderr.contains("blog, shop"), "the message names the apps: \(unknown)")
        let status = try fixture.navctl("--app", "nope", "status")
        #expect(status.status == 1, "\(status)")
        #expect(try fixture.state(nil).integer("revision") == 1)
    }

    @Test("completion offers app names after --app, and each app's own routes, tabs and events once --app is typed")
    func completion() throws {
        for tool in ["navctl", "navwatch"] {
            for shell in ["bash", "zsh", "fish"] {
                let result = try ChildProcess.run(Products.url(tool), ["--generate-completion-script", shell], timeout: 30)
                #expect(result.status == 0, "\(tool) \(shell): \(result.stderr)")
                // --app's candidates come from the tool itself, which reads the typed words.
                #expect(result.stdout.contains("---completion") && result.stdout.contains("-- --app"), "\(tool) \(shell)")
            }
        }
        let fixture = try NavctlAppsFixture()
        #expect(try fixture.navctl("apps", "--names").lines == ["blog", "shop"])
        let help = try fixture.navctl("--help")
        #expect(help.stdout.contains("apps"))
        #expect(help.stdout.contains("reload"))

        // What a shell asks: `TOOL ---completion SUBCOMMAND -- ARGUMENT WORD-INDEX CURSOR WORDS...`.
        func candidates(_ tool: String, _ request: [String], _ typed: [String]) throws -> [String] {
            let words = [tool, "--address", fixture.bus.address] + typed + [""]
            let result = try ChildProcess.run(
                Products.url(tool), ["---completion"] + request + ["\(words.count - 1)", "0"] + words, timeout: 30)
            #expect(result.status == 0, "\(tool) \(request) \(typed): \(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try candidates("navctl", ["push", "--", "--app"], ["push", "--app"]) == ["blog", "shop"])
        #expect(try candidates("navwatch", ["--", "--app"], ["--app"]) == ["blog", "shop"])
        #expect(try candidates("navctl", ["push", "--", "positional@0"], ["--app", "shop", "push"]) == ["home", "cart"])
        #expect(try candidates("navctl", ["push", "--", "positional@0"], ["push", "--app=blog"]) == ["feed", "post"])
        let demo = try candidates("navctl", ["push", "--", "positional@0"], ["push"])
        #expect(demo.prefix(2) == ["red", "orange"], "without --app: the default navigator's routes")
        #expect(try candidates("navctl", ["push", "--", "positional@0"], ["--app", "nope", "push"]).isEmpty,
                "an app navd does not serve offers nothing")
    }
}
