import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// Reloading route files while navd runs: `Reload` on an app's object or the default one, and
/// `SIGHUP`. A valid edit repairs the tree as one `reconcile` revision (only when something
/// changed), a broken file changes nothing, apps come and go with their files.
@Suite("navd reload", .timeLimit(.minutes(2)))
struct NavdReloadTests: NavdWithAppsObjects {
    @Test func anEditThatRemovesARouteOnThePathIsRepairedAsOneReconcileRevision() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(1))], at: shop)   // 2
        try client.push("reviews", at: shop)                          // 3
        try client.push("checkout", at: shop)                         // 4
        _ = try client.navigator("Undo", at: shop)                    // 5: catalog, product, reviews
        #expect(try client.property("CanUndo", at: shop).boolValue == true)
        #expect(try client.property("CanRedo", at: shop).boolValue == true)
        let mailBefore = try client.snapshot(at: mail)
        let mainBefore = try client.snapshot(at: main)
        let watcher = try navd.connect()
        try watcher.addMatch(.everyNavdSignal)

        try navd.write("shop", AppRouteFiles.shopWithoutReviews)
        #expect(try client.reload(at: shop) == 6)

        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product"], "reviews and everything above it went")
        #expect(try client.navigatorState(at: shop).revision == 6)
        #expect(try client.history(at: shop, limit: 2).map(\.revision) == [6, 5])
        #expect(try client.history(at: shop, limit: 1).first?.cause == "reconcile")
        #expect(try client.property("CanUndo", at: shop).boolValue == false, "the repair clears undo")
        #expect(try client.property("CanRedo", at: shop).boolValue == false, "the repair clears redo")
        #expect(client.navigatorFailure("Undo", at: shop)?.name == NavigatorErrorName(.nothingToUndo).fullName)
        #expect(!(try client.routeNames(at: shop)).contains("reviews"), "GetRoutes answers from the new graph")
        #expect(client.navigatorFailure("Push", [.string("reviews"), .emptyParams], at: shop)?.name
                == NavigatorErrorName(.unknownRoute).fullName)

        let signal = try #require(try watcher.nextStackChanged())
        #expect(signal.path == shop && signal.revision == 6 && signal.cause == "reconcile" && signal.routes == ["catalog", "product"],
                "\(signal)")
        let properties = try #require(watcher.waitForMessage(timeout: 10) { $0.member == "PropertiesChanged" })
        #expect(properties.path == shop)
        let changed = Dictionary(uniqueKeysWithValues: try properties.body()[1].stringKeyedPairs ?? [])
        #expect(changed["Revision"]?.uint64Value == 6 && changed["CanUndo"]?.boolValue == false, "\(changed.keys.sorted())")
        #expect(try client.snapshot(at: mail) == mailBefore, "the shop's reload left mail alone")
        #expect(try client.snapshot(at: main) == mainBefore, "the shop's reload left the default navigator alone")

        // The repair is durable: a restart brings back the repaired tree at the same revision.
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        #expect(try client.navigatorState(at: shop).revision == 6)
        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product"])
    }

    @Test func anEditThatChangesNothingMakesNoRevisionAndKeepsUndo() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(1))], at: shop)
        try client.push("reviews", at: shop)
        _ = try client.navigator("Undo", at: shop)                    // 4, redo possible
        let before = try client.snapshot(at: shop)
        let watcher = try navd.connect()
        try watcher.addMatch(.everyNavdSignal)

        try navd.write("shop", AppRouteFiles.shopReformatted)
        #expect(try client.reload(at: shop) == 4)
        #expect(try client.reload(at: main) == 1, "the default navigator's revision")
        try navd.write("shop", AppRouteFiles.shop)                     // the same bytes as at start
        #expect(try client.reload(at: shop) == 4)
        #expect(try client.snapshot(at: shop) == before, "nothing changed: revision, tree, history, undo and redo")

        try client.push("basket", at: shop)
        let first = try #require(try watcher.nextStackChanged())
        #expect(first.cause == "push" && first.revision == 5, "the first signal after the reloads is the push's: \(first)")
    }

    @Test func aBrokenFileIsRefusedByFileAndLineAndNothingChanges() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(1))], at: shop)
        let shopBefore = try client.snapshot(at: shop)
        let watcher = try navd.connect()
        try watcher.addMatch(.everyNavdSignal)

        try navd.write("shop", AppRouteFiles.shopBroken)
        let refused = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: shop))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains(navd.file("shop") + ":11:"), "FILE:LINE: \(refused.message)")
        #expect(refused.message.contains("routes.product.params.sku"), "the key: \(refused.message)")
        #expect(try client.snapshot(at: shop) == shopBefore, "revision, tree, history and routes are as they were")
        #expect(try client.push("reviews", at: shop) == 3, "the old graph is still served")

        // On the default object: the broken file is refused, every other file is still reloaded.
        try navd.write("mail", AppRouteFiles.mailWithArchive)
        let everything = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: main))
        #expect(everything.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(everything.message.contains(navd.file("shop") + ":11:"), "\(everything.message)")
        #expect(!everything.message.contains("mail.yaml"), "only the refused file is named: \(everything.message)")
        #expect(try client.push("archive", at: mail) == 2, "mail's edit took effect")
        #expect(try client.revision(at: shop) == 3)

        let first = try #require(try watcher.nextStackChanged())
        #expect(first.path == shop && first.cause == "push" && first.revision == 3, "no signal for the refusal: \(first)")
    }

    @Test func reloadOnAnAppWhoseFileIsGoneIsRefusedAndTheAppStaysUntilEverythingIsReloaded() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        try client.push("product", [("sku", .int64(1))], at: shop)
        try navd.removeFile("shop")
        let refused = try #require(client.navigatorFailure(NavigatorMethod.reload.name, at: shop))
        #expect(refused.name == NavigatorErrorName.invalidRouteFile.fullName)
        #expect(refused.message.contains(navd.file("shop")), "\(refused.message)")
        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product"], "the app stays")
        #expect(try client.push("reviews", at: shop) == 3)

        try client.reload(at: main)
        #expect(client.navigatorFailure("GetState", at: shop)?.name == DBusErrorName.unknownObject)
        #expect(try client.revision(at: mail) == 1)
    }

    @Test func sighupReloadsEveryFile() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        let watcher = try navd.connect()
        try watcher.addMatch(Navigator.objectManagerRule)
        #expect(client.navigatorFailure("Push", [.string("archive"), .emptyParams], at: mail) != nil)
        try navd.write("mail", AppRouteFiles.mailWithArchive)
        try navd.write("zeta", AppRouteFiles.notes)   // sorted last: announced after mail is reloaded
        #expect(kill(navd.navd.pid, SIGHUP) == 0)
        let added = try #require(watcher.waitForMessage(timeout: 10) { $0.member == "InterfacesAdded" })
        #expect(try added.body()[0].objectPathValue?.rawValue == NavdWithApps.path("zeta"))
        #expect(try client.push("archive", at: mail) == 2)
        #expect(try client.revision(at: NavdWithApps.path("zeta")) == 1)
        #expect(navd.navd.isRunning)
    }

    @Test func anAppFileAddedAndRemovedComesAndGoesAndItsStateStaysForItsReturn() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        let watcher = try navd.connect()
        try watcher.addMatch(.everyNavdSignal)
        let notes = NavdWithApps.path("notes")

        try navd.write("notes", AppRouteFiles.notes)
        try client.reload()
        let added = try #require(watcher.waitForMessage(timeout: 10) { $0.member == "InterfacesAdded" })
        let addedBody = try added.body()
        #expect(added.path == main)
        #expect(addedBody[0].objectPathValue?.rawValue == notes)
        let interfaces = addedBody[1].dictEntries ?? []
        #expect(interfaces.map { $0.key.stringValue ?? "" } == [Navigator.interfaceName], "only the navigator interface")
        let properties = Dictionary(uniqueKeysWithValues: interfaces.first?.value.stringKeyedPairs ?? [])
        #expect(properties["Revision"]?.uint64Value == 1 && properties["Top"]?.stringValue == "list", "\(properties.keys.sorted())")
        let start = try #require(try watcher.nextStackChanged())
        #expect(start.path == notes && start.cause == "start" && start.revision == 1, "\(start)")

        try client.push("note", [("n", .int64(1))], at: notes)
        try client.push("note", [("n", .int64(2))], at: notes)
        try navd.removeFile("notes")
        try client.reload()
        let removed = try #require(watcher.waitForMessage(timeout: 10) { $0.member == "InterfacesRemoved" })
        #expect(try removed.body()[0].objectPathValue?.rawValue == notes)
        #expect(try removed.body()[1].arrayValues?.map { $0.stringValue ?? "" } == [Navigator.interfaceName])
        #expect(client.navigatorFailure("GetState", at: notes)?.name == DBusErrorName.unknownObject)
        #expect(FileManager.default.fileExists(atPath: navd.stateFile("notes")), "its state stays on disk")

        try navd.write("notes", AppRouteFiles.notes)
        try client.reload()
        let back = try #require(watcher.waitForMessage(timeout: 10) { $0.member == "InterfacesAdded" })
        #expect(try back.body()[0].objectPathValue?.rawValue == notes)
        let state = try client.navigatorState(at: notes)
        #expect(state.revision == 3 && state.path.map(\.route) == ["list", "note", "note"], "back where it was")
        #expect(state.path.last?.params["n"] == .int64(2))
        let restore = try #require(try watcher.nextStackChanged())
        #expect(restore.path == notes && restore.cause == "restore" && restore.revision == 3, "\(restore)")
    }

    @Test func callsToOtherNavigatorsAreAnsweredWhileAChangedFileIsParsed() throws {
        func bigFile(_ title: String) -> String {
            "root: r0\nroutes:\n" + (0..<500).map { "  r\($0): { title: \"\(title) \($0)\", presentations: [push] }\n" }.joined()
        }
        let navd = try NavdWithApps(apps: ["big": bigFile("A"), "mail": AppRouteFiles.mail])
        let client = try navd.connect()
        try navd.write("big", bigFile("B"))   // other bytes: parsed again, on navd's reload thread
        func call(_ member: String, at path: String) throws -> UInt32 {
            try client.send(Message.methodCall(
                destination: Navigator.busName, path: path, interface: Navigator.interfaceName, member: member))
        }
        let reload = try call("Reload", at: NavdWithApps.path("big"))
        let state = try call("GetState", at: mail)
        let other = try call("GetState", at: main)
        client.flush()
        var replies: [Message] = []
        while replies.count < 3, let reply = client.waitForMessage(timeout: 60, matching: { [reload, state, other].contains($0.replySerial) }) {
            replies.append(reply)
        }
        let order = replies.map(\.replySerial)
        #expect(order.count == 3, "every call answered: \(order)")
        #expect(order.first == state && order.last == reload,
                "the other navigators' calls were answered while big.yaml was parsed, Reload after: \(order) (Reload \(reload), mail \(state), default \(other))")
        #expect(replies.last?.errorName == nil && replies.last?.signature == "t", "\(String(describing: replies.last?.errorName))")
        let titles = try client.navigator("GetRoutes", at: NavdWithApps.path("big")).description
        #expect(titles.contains("B 499") && !titles.contains("A 499"), "the new graph is served after the answer")
    }
}
