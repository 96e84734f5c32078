import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestFixtures
import TestSupport

/// Route files of the apps tests: two apps with different graphs (one tabbed, one a single stack),
/// and edits of them. The files themselves are in `Tests/Fixtures/apps/`, where the shell tests read them too.
enum AppRouteFiles {
    /// A tabbed shop: browse (catalog → product → reviews) and cart (`Tests/Fixtures/apps/shop.yaml`).
    static let shop = Fixture.app("shop")

    /// The shop without its `reviews` route.
    static let shopWithoutReviews = shop.replacingOccurrences(of: "  reviews: { title: Reviews }\n", with: "")

    /// The shop with a comment and different spacing: other bytes, the same graph.
    static let shopReformatted = "# the same shop, written differently\n"
        + shop.replacingOccurrences(of: "{ title: Catalog }", with: "{title: Catalog}")

    /// The shop with an unknown param type on line 10 (`routes.product.params.sku`).
    static let shopBroken = shop.replacingOccurrences(of: "{ type: int, required: true }", with: "{ type: integer, required: true }")

    /// An untabbed mail app: inbox → message, compose as a sheet or cover (`Tests/Fixtures/apps/mail.yaml`).
    static let mail = Fixture.app("mail")

    /// The mail app with one more route, `archive`.
    static let mailWithArchive = mail + "  archive: { title: Archive }\n"

    /// A third app, for files added while navd runs (`Tests/Fixtures/apps/notes.yaml`).
    static let notes = Fixture.app("notes")
}

/// A private bus and a navd with an apps folder in a temporary home: the apps given (by default
/// `shop` and `mail`) and the default navigator on the demo graph, with state kept in a
/// temporary state directory. Everything is stopped by pid and removed when it is released.
/// (Unchecked: its files may be written from another thread; navd and the bus are its own.)
/// The objects of `NavdWithApps`'s navigators, for the suites that call them: `shop`, `mail` and `main`
/// (the default navigator).
protocol NavdWithAppsObjects {}

extension NavdWithAppsObjects {
    var shop: String { NavdWithApps.path("shop") }
    var mail: String { NavdWithApps.path("mail") }
    var main: String { NavdWithApps.path(nil) }
}

final class NavdWithApps: @unchecked Sendable {
    let bus: PrivateBus
    let navd: NavdProcess
    let stateDirectory: String

    /// Writes `apps` (name → route file text) and `otherFiles` (file name → text) into the apps
    /// folder, then starts navd unless `start` is false.
    init(apps: [String: String] = ["shop": AppRouteFiles.shop, "mail": AppRouteFiles.mail],
         otherFiles: [String: String] = [:], start: Bool = true) throws {
        bus = try PrivateBus()
        stateDirectory = TemporaryDirectory.make("navd-apps-state")
        navd = NavdProcess(bus: bus, stateDirectory: stateDirectory)
        for (name, text) in apps { try write(name, text) }
        for (file, text) in otherFiles {
            try text.write(toFile: navd.appsDirectory + "/" + file, atomically: true, encoding: .utf8)
        }
        if start { try navd.start() }
    }

    deinit {
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(stateDirectory)
    }

    /// The apps folder.
    var appsDirectory: String { navd.appsDirectory }

    /// The route file of `app`.
    func file(_ app: String) -> String { appsDirectory + "/" + app + ".yaml" }

    /// Writes `app`'s route file (replacing it in one rename, as an editor does).
    func write(_ app: String, _ text: String) throws {
        try text.write(toFile: file(app), atomically: true, encoding: .utf8)
    }

    /// Removes `app`'s route file.
    func removeFile(_ app: String) throws {
        try FileManager.default.removeItem(atPath: file(app))
    }

    /// The object path of `app` (nil: the default navigator).
    static func path(_ app: String?) -> String {
        app.map { Navigator.appsPath.rawValue + "/" + $0 } ?? Navigator.objectPath.rawValue
    }

    /// A new connection to the bus.
    func connect() throws -> Connection { try Connection(.address(bus.address)) }

    /// Where `app`'s state is kept.
    func stateFile(_ app: String) -> String { stateDirectory + "/apps/" + app + "/navd.sqlite3" }
}

/// What tests compare of one navigator: revision, tree, history, routes and the undo flags.
struct NavigatorSnapshot: Equatable, CustomStringConvertible {
    var tree: [DBusValue]
    var history: [DBusValue]
    var routes: [DBusValue]
    var canUndo: Bool
    var canRedo: Bool

    var revision: UInt64 { tree.first?.uint64Value ?? 0 }

    var description: String { "revision \(revision), canUndo \(canUndo), canRedo \(canRedo), \(history.first?.arrayValues?.count ?? 0) history entries" }
}

extension Connection {
    /// `GetTree`, `History(1000)`, `GetRoutes`, `CanUndo` and `CanRedo` of the navigator at `path`.
    func snapshot(at path: String) throws -> NavigatorSnapshot {
        NavigatorSnapshot(
            tree: try navigator("GetTree", at: path), history: try navigator("History", [.uint32(1000)], at: path),
            routes: try navigator("GetRoutes", at: path),
            canUndo: try flag("CanUndo", at: path), canRedo: try flag("CanRedo", at: path))
    }

    /// The boolean property `name` of the navigator at `path`; a value of another type throws, naming it.
    func flag(_ name: String, at path: String) throws -> Bool {
        let value = try property(name, at: path)
        try Self.requireTypes([value], ["b"], "\(name) at \(path)")
        return value.boolValue!
    }

    /// The property `name` of the navigator at `path`, unwrapped from its variant.
    func property(_ name: String, at path: String) throws -> DBusValue {
        let message = try Message.navigatorCall(
            "Get", [.string(Navigator.interfaceName), .string(name)], interface: StandardInterfaces.properties.name, path: path)
        let value = try call(message).body()[0]
        return value.variantValue ?? value
    }

    /// The route names `GetRoutes` lists at `path`.
    func routeNames(at path: String) throws -> [String] {
        (try navigator("GetRoutes", at: path).first?.arrayValues ?? []).compactMap { $0.structFields?.first?.stringValue }
    }

    /// `History(limit)` at `path` as (revision, cause), newest first; a reply of another type throws, naming it.
    func history(at path: String, limit: UInt32 = 1000) throws -> [(revision: UInt64, cause: String)] {
        let out = try navigator("History", [.uint32(limit)], at: path)
        try Self.requireTypes(out, ["a(tsx)"], "History at \(path)")
        return out[0].arrayValues!.map { entry in (entry.structFields![0].uint64Value!, entry.structFields![1].stringValue!) }
    }

    /// Pushes `route` with `params` at `path`; the new revision.
    @discardableResult
    func push(_ route: String, _ params: [(String, DBusValue)] = [], at path: String) throws -> UInt64 {
        let out = try navigator("Push", [.string(route), .vardict(params)], at: path)
        try Self.requireTypes(out, ["t", "s"], "Push at \(path)")
        return out[0].uint64Value!
    }

    /// `Reload()` at `path`; the revision it answers.
    @discardableResult
    func reload(at path: String = Navigator.objectPath.rawValue) throws -> UInt64 {
        let out = try navigator(NavigatorMethod.reload.name, at: path, timeoutMilliseconds: 30_000)
        try Self.requireTypes(out, ["t"], "Reload at \(path)")
        return out[0].uint64Value!
    }

    /// The next `StackChanged` (from any navd object this connection's rules let through) as
    /// (path, revision, cause, routes); nil when none comes within `timeout` seconds.
    func nextStackChanged(timeout: Double = 10) throws -> (path: String, revision: UInt64, cause: String, routes: [String])? {
        guard let signal = waitForMessage(timeout: timeout, matching: { $0.kind == .signal && $0.member == "StackChanged" })
        else { return nil }
        let body = try signal.body()
        try Self.requireTypes(body, ["t", "s", "s", WireSignature.path.rawValue], "StackChanged")
        return (signal.path ?? "", body[0].uint64Value!, body[1].stringValue!, try Self.path(body[3]).map(\.route))
    }
}
