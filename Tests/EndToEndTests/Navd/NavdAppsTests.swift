import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// Several apps on one navd: each app's object has its own graph, tree, revisions and history,
/// sends its signals from its own path, announces its start there, and leaves the others alone.
@Suite("navd apps", .timeLimit(.minutes(2)))
struct NavdAppsTests: NavdWithAppsObjects {
    @Test func eachAppHasItsOwnGraphAndACallOnOneLeavesTheOthersUntouched() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        #expect(try client.routeNames(at: shop) == ["catalog", "product", "reviews", "basket", "checkout", "help"])
        #expect(try client.routeNames(at: mail) == ["inbox", "message", "compose"])
        #expect(try client.routeNames(at: main).contains("orange"))
        #expect(try client.navigatorState(at: shop).tab == "browse")
        #expect(try client.navigatorState(at: mail).tab == "", "mail is a single stack")

        let mailBefore = try client.snapshot(at: mail)
        let mainBefore = try client.snapshot(at: main)
        #expect(try client.push("product", [("sku", .int64(7))], at: shop) == 2)
        #expect(try client.push("reviews", at: shop) == 3)
        #expect(try client.snapshot(at: mail) == mailBefore, "the shop's pushes left mail alone")
        #expect(try client.snapshot(at: main) == mainBefore, "the shop's pushes left the default navigator alone")

        let shopAfter = try client.snapshot(at: shop)
        #expect(try client.push("message", [("id", .string("m1"))], at: mail) == 2)
        #expect(try client.push("orange", at: main) == 2)
        _ = try client.navigator("Undo", at: main)
        #expect(try client.snapshot(at: shop) == shopAfter, "calls on mail and the default navigator left the shop alone")

        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product", "reviews"])
        #expect(try client.navigatorRoutes(at: mail) == ["inbox", "message"])
        #expect(try client.navigatorRoutes(at: main) == ["red"])
        #expect(try client.history(at: shop).map(\.cause) == ["push", "push"])
        #expect(try client.history(at: mail).map(\.cause) == ["push"])
        #expect(try client.history(at: main).map(\.cause) == ["undo", "push"])
        // Each graph is its own: a route of one app is unknown to the others.
        #expect(client.navigatorFailure("Push", [.string("orange"), .emptyParams], at: shop)?.name
                == NavigatorErrorName(.unknownRoute).fullName)
        #expect(client.navigatorFailure("Push", [.string("inbox"), .emptyParams], at: main)?.name
                == NavigatorErrorName(.unknownRoute).fullName)
        #expect(client.navigatorFailure("SelectTab", [.string("cart")], at: mail)?.name == NavigatorErrorName(.notTabbed).fullName)
        #expect(try client.navigator("SelectTab", [.string("cart")], at: shop)[0].uint64Value == 4)
        #expect(try client.navigatorState(at: main).tab == "rainbow")
        #expect(try client.property("Revision", at: mail).uint64Value == 2)
        #expect(try client.property("Top", at: shop).stringValue == "basket")
    }

    @Test func signalsComeFromTheAppsOwnPathOnly() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        let everything = try navd.connect()
        try everything.addMatch(.everyNavdSignal)
        let shopOnly = try navd.connect()
        try shopOnly.addMatch(Navigator.stackChangedRule(path: ObjectPath(unchecked: shop)))
        try shopOnly.addMatch(Navigator.propertiesChangedRule(path: ObjectPath(unchecked: shop)))

        try client.push("product", [("sku", .int64(1))], at: shop)
        try client.push("message", [("id", .string("m"))], at: mail)
        #expect(client.navigatorFailure("Push", [.string("compose"), .emptyParams], at: mail) != nil, "a refusal sends nothing")
        _ = try client.navigator("Present", [.string("compose"), .emptyParams, .string("sheet")], at: mail)
        try client.push("orange", at: main)
        try client.push("checkout", at: shop)

        var seen: [String] = []
        // The bus' own signals (NameAcquired) are not navd's.
        func isNavds(_ message: Message) -> Bool { message.kind == .signal && message.sender != "org.freedesktop.DBus" }
        while seen.count < 10, let signal = everything.waitForMessage(timeout: 10, matching: isNavds) {
            let app = signal.path.map { $0 == main ? "default" : String($0.split(separator: "/").last ?? "") } ?? "?"
            if signal.member == "StackChanged" {
                let body = try signal.body()
                let top = try Connection.path(body[3]).last?.route ?? ""
                seen.append("\(app) StackChanged \(body[0].uint64Value ?? 0) \(top)")
            } else {
                seen.append("\(app) \(signal.member ?? "?")")
            }
        }
        #expect(seen == [
            "shop StackChanged 2 product", "shop PropertiesChanged",
            "mail StackChanged 2 message", "mail PropertiesChanged",
            "mail StackChanged 3 compose", "mail PropertiesChanged",
            "default StackChanged 2 orange", "default PropertiesChanged",
            "shop StackChanged 3 checkout", "shop PropertiesChanged",
        ])

        var shopSignals: [String] = []
        while shopSignals.count < 4, let signal = shopOnly.waitForMessage(timeout: 10, matching: isNavds) {
            #expect(signal.path == shop, "a watcher of the shop's path got a signal from \(signal.path ?? "?")")
            if signal.member == "PropertiesChanged" {
                let revision = try signal.body()[1].stringKeyedPairs?.first { $0.0 == "Revision" }?.1
                shopSignals.append("PropertiesChanged \(revision?.uint64Value ?? 0)")
            } else {
                shopSignals.append(signal.member ?? "?")
            }
        }
        #expect(shopSignals == ["StackChanged", "PropertiesChanged 2", "StackChanged", "PropertiesChanged 3"],
                "the shop's PropertiesChanged carries the shop's revision")
    }

    @Test func eachAppAnnouncesItsStartAndItsRestoreFromItsOwnPath() throws {
        let navd = try NavdWithApps(start: false)
        let watcher = try navd.connect()
        try watcher.addMatch(.everyNavdSignal)
        try navd.navd.start()
        var starts: [String: String] = [:]
        while starts.count < 3, let signal = try watcher.nextStackChanged() {
            #expect(starts[signal.path] == nil, "two start-up signals from \(signal.path)")
            starts[signal.path] = "\(signal.cause) \(signal.revision) \(signal.routes.joined(separator: ","))"
        }
        #expect(starts == [main: "start 1 red", shop: "start 1 catalog", mail: "start 1 inbox"])

        let client = try navd.connect()
        try client.push("product", [("sku", .int64(3))], at: shop)
        try client.push("message", [("id", .string("x"))], at: mail)
        try client.push("message", [("id", .string("y"))], at: mail)
        // Drop what the calls above sent, up to the last one's signal.
        while let signal = try watcher.nextStackChanged(), !(signal.path == mail && signal.revision == 3) {}
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        var restores: [String: String] = [:]
        while restores.count < 3, let signal = try watcher.nextStackChanged() {
            restores[signal.path] = "\(signal.cause) \(signal.revision) \(signal.routes.joined(separator: ","))"
        }
        #expect(restores == [main: "restore 1 red", shop: "restore 2 catalog,product", mail: "restore 3 inbox,message,message"])
        #expect(FileManager.default.fileExists(atPath: navd.stateFile("shop")))
        #expect(FileManager.default.fileExists(atPath: navd.stateFile("mail")))
    }

    @Test func anUnknownAppPathAnswersUnknownObjectNamingTheApps() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        for member in ["GetState", "Push", "Reload"] {
            let arguments: [DBusValue] = member == "Push" ? [.string("inbox"), .emptyParams] : []
            let failure = try #require(client.navigatorFailure(member, arguments, at: NavdWithApps.path("nope")))
            #expect(failure.name == DBusErrorName.unknownObject, "\(member): \(failure)")
            #expect(failure.message.contains("mail") && failure.message.contains("shop"), "\(failure.message)")
        }
        let introspect = try Message.navigatorCall(
            "Introspect", interface: StandardInterfaces.introspectable.name, path: NavdWithApps.path("nope"))
        #expect(throws: DBusError.self) { try client.call(introspect) }
        #expect(try client.revision(at: shop) == 1, "the shop is there")
    }

    @Test func introspectionListsTheAppsNodeAndOneNodePerApp() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        func introspect(_ path: String) throws -> IntrospectionDocument {
            let message = try Message.navigatorCall("Introspect", interface: StandardInterfaces.introspectable.name, path: path)
            return try IntrospectionDocument(try client.call(message).body().first?.stringValue ?? "")
        }
        #expect(try introspect(main).children == ["apps"])
        #expect(try introspect(Navigator.appsPath.rawValue).children.sorted() == ["mail", "shop"])
        let app = try introspect(shop)
        #expect(app.members[Navigator.interfaceName]?.contains { $0.name == "Push" } == true)
        #expect(app.members[Navigator.interfaceName]?.contains { $0.name == "Reload" } == true)
        #expect(app.children.isEmpty)
        let tree = try ChildProcess.run("/usr/bin/busctl", ["--address=\(navd.bus.address)", "tree", Navigator.busName], timeout: 20)
        #expect(tree.status == 0, "\(tree.stderr)")
        for path in [main, Navigator.appsPath.rawValue, shop, mail] {
            #expect(tree.stdout.contains(path), "busctl tree does not show \(path): \(tree.stdout)")
        }
    }

    @Test func aFileWhoseNameIsNotAnAppNameIsIgnored() throws {
        let navd = try NavdWithApps(otherFiles: [
            "bad-name.yaml": AppRouteFiles.mail, "has.dot.yaml": AppRouteFiles.mail, ".yaml": AppRouteFiles.mail,
            "notes.txt": AppRouteFiles.notes, "\(String(repeating: "a", count: 65)).yaml": AppRouteFiles.mail,
        ])
        let client = try navd.connect()
        let message = try Message.navigatorCall(
            "GetManagedObjects", interface: StandardInterfaces.objectManager.name, path: main)
        let objects = (try client.call(message).body().first?.dictEntries ?? []).compactMap { $0.key.objectPathValue?.rawValue }
        #expect(objects == [mail, shop])
        #expect(navd.navd.stderr.contains("bad-name.yaml"), "the ignored file is logged: \(navd.navd.stderr)")
        #expect(navd.navd.stderr.contains("has.dot.yaml"))
        #expect(try client.revision(at: mail) == 1)
    }

    @Test func aBrokenAppFileAtStartKeepsThatAppOutAndServesTheOthers() throws {
        let navd = try NavdWithApps(apps: ["shop": AppRouteFiles.shopBroken, "mail": AppRouteFiles.mail])
        let client = try navd.connect()
        let failure = try #require(client.navigatorFailure("GetState", at: shop))
        #expect(failure.name == DBusErrorName.unknownObject)
        let listed = failure.message.replacingOccurrences(of: shop, with: "")
        #expect(listed.contains("mail") && !listed.contains("shop"), "names the apps there are: \(failure.message)")
        #expect(try client.push("message", [("id", .string("a"))], at: mail) == 2)
        #expect(try client.push("orange", at: main) == 2)
        let log = navd.navd.stderr
        #expect(log.contains(navd.file("shop") + ":11:"), "the log names the file and line: \(log)")
        #expect(!FileManager.default.fileExists(atPath: navd.stateFile("shop")), "a kept-out app gets no state")
    }

    @Test func anAppWhoseSavedStateIsDamagedIsKeptOutAndItsFileLeftAsItIs() throws {
        let navd = try NavdWithApps(start: false)
        let damaged = navd.stateFile("shop")
        try FileManager.default.createDirectory(
            atPath: (damaged as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
        try garbage.write(to: URL(fileURLWithPath: damaged))
        try navd.navd.start()
        let client = try navd.connect()
        #expect(client.navigatorFailure("GetState", at: shop)?.name == DBusErrorName.unknownObject)
        #expect(try client.push("message", [("id", .string("a"))], at: mail) == 2, "the other app is served")
        #expect(try client.push("orange", at: main) == 2, "so is the default navigator")
        #expect(navd.navd.stderr.contains(damaged), "the log names the damaged file: \(navd.navd.stderr)")
        // A reload tries again and still keeps it out, touching nothing.
        _ = try client.navigator("Reload", at: main)
        #expect(client.navigatorFailure("GetState", at: shop)?.name == DBusErrorName.unknownObject)
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == garbage, "the damaged file is left as it was")
    }
}

extension Connection {
    /// The `Revision` at `path` (through `GetState`).
    func revision(at path: String) throws -> UInt64 { try navigatorRevision(at: path) }
}
