import ArgumentParser
import NavdClient
import Testing
@testable import NavctlCommandLine

/// `--app NAME` is a global option like `--address`: read by the fast path and by ArgumentParser alike, before
/// or after the command's name, and an invalid name is a usage error that says why.
@Suite("navctl --app", .timeLimit(.minutes(1)))
struct NavctlAppOptionTests {
    @Test("both paths read --app before or after the command, for every command")
    func bothPaths() throws {
        for line in [["--app", "shop", "push", "cart"], ["push", "cart", "--app", "shop"], ["push", "--app=shop", "cart"]] {
            let fast = try #require(fastParse(line), "\(line)")
            #expect(fast.options.connection.app == "shop", "\(line)")
            let parsed = try #require(
                try Navctl.parseAsRoot(reorderGlobalOptions(line, subcommands: Navctl.subcommandNames)) as? Push)
            #expect(parsed.options.connection.app == "shop", "\(line)")
        }
        #expect(try #require(fastParse(["state"])).options.connection.app == nil)
        #expect(fastParse(["--app", "shop", "apps", "--names"]) is Apps)
        #expect(fastParse(["--app", "shop", "reload"]) is Reload)
    }

    @Test("an invalid app name is left to ArgumentParser, which refuses it with the reason (exit 2)")
    func invalidName() {
        for (name, reason) in [("no-pe", "may hold only letters"), (String(repeating: "a", count: 65), "longer than 64")] {
            #expect(fastParse(["--app", name, "state"]) == nil)
            do {
                _ = try Navctl.parseAsRoot(reorderGlobalOptions(["--app", name, "state"], subcommands: Navctl.subcommandNames))
                Issue.record("--app \(name) was taken")
            } catch {
                #expect(Navctl.exitCode(for: error) == .validationFailure)
                #expect(Navctl.fullMessage(for: error).contains(reason), "\(Navctl.fullMessage(for: error))")
            }
        }
    }

    @Test("a refusal of several lines keeps its error name on the first and every other line as it is")
    func multiLineRefusal() {
        let name = "org.navd.Navigator1.Error.InvalidRouteFile"
        #expect(refusalText(name: name, message: "refused 1 route file:\n/a/shop.yaml:4: routes.cart: bad")
            == "navctl: refused 1 route file: [\(name)]\n/a/shop.yaml:4: routes.cart: bad")
        #expect(refusalText(name: "x.Y", message: "one line") == "navctl: one line [x.Y]")
        #expect(refusalText(name: "x.Y", message: "") == "navctl: x.Y [x.Y]")
    }

    @Test("apps prints one padded line per app: name, path, revision, top")
    func appsLines() {
        var shop = NavigatorProperties()
        shop.revision = 12
        shop.top = "cart"
        var blog = NavigatorProperties()
        blog.revision = 3
        blog.top = "post"
        let lines = Apps.lines([
            AppInfo(name: "blog", path: Navigator.appPath("blog")!, properties: blog),
            AppInfo(name: "shop", path: Navigator.appPath("shop")!, properties: shop),
        ])
        #expect(lines == [
            "blog  /org/navd/Navigator1/apps/blog  3   post",
            "shop  /org/navd/Navigator1/apps/shop  12  cart",
        ])
    }
}
