import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// Apps are navigators too: an app's route file edited between `kill -9` and the next start is
/// handled as the default navigator's is (`docs/durability.md#edits-while-navd-is-down`): every answered change replayed, then one
/// `reconcile` revision, the next change accepted, a clean restart that keeps it. Before, the
/// app's state stopped at the first change the edit no longer allowed and every change after was
/// answered `StorageFailed`.
@Suite("navd app crash then edit", .serialized, .timeLimit(.minutes(2)), .enabled(if: EndToEnd.navdAvailable))
struct NavdAppCrashThenEditTests: NavdWithAppsObjects {
    @Test func anAppsRouteFileEditedWhileNavdWasDown() throws {
        let navd = try NavdWithApps()
        let client = try navd.connect()
        #expect(try client.push("product", [("sku", .int64(7))], at: shop) == 2)
        #expect(try client.push("reviews", at: shop) == 3)
        #expect(try client.push("product", [("sku", .int64(8))], at: shop) == 4)
        let mailBefore = try client.snapshot(at: mail)
        navd.navd.kill9()
        try navd.write("shop", AppRouteFiles.shopWithoutReviews)

        try navd.navd.start()
        #expect(try client.navigatorRoutes(at: shop) == ["catalog", "product"], "reviews and the screen above it are repaired away")
        let history = try client.history(at: shop).prefix(4).map { "\($0.revision) \($0.cause)" }
        #expect(history == ["5 reconcile", "4 push", "3 push", "2 push"], "\(history)\n\(navd.navd.stderr)")
        #expect(navd.navd.stderr.contains("navd: warning: app 'shop': tab 'browse': removed screen 'reviews'"), "\(navd.navd.stderr)")
        #expect(!navd.navd.stderr.contains("navd: error:"), "\(navd.navd.stderr)")
        #expect(try client.snapshot(at: mail) == mailBefore, "the other app is untouched")
        #expect(try client.push("product", [("sku", .int64(9))], at: shop) == 6)

        let before = try client.snapshot(at: shop)
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        #expect(try client.snapshot(at: shop) == before)
        #expect(!navd.navd.stderr.contains("navd: warning:"), "a clean restart repairs nothing: \(navd.navd.stderr)")
    }
}
