import DBus
import Foundation
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// What the demo graph cannot show (a fact no guard covers, `none` handlers): a route file of its own.
@Suite("navd coordination on a route file", .timeLimit(.minutes(2)))
struct NavdCoordinationRouteFileTests {
    let fixture: NavdOnPrivateBus
    let client: Connection

    init() throws {
        fixture = try NavdOnPrivateBus(routes: """
            facts:
              paid: { type: bool, default: false }
            routes:
              home: { on: { buy: { push: receipt }, tap: none, stay: { set-facts: { paid: false } } } }
              receipt: { requires: [paid] }
            root: home
            """)
        client = try Connection(.address(fixture.bus.address))
    }

    @Test func anIgnoredEventAnswersTheCurrentRevisionAndSendsNothing() throws {
        try client.subscribeToNavigator()
        #expect(try client.navigatorEvents() == ["buy route", "stay route"], "a none handler is left out")
        #expect(try client.sendEvent("tap") == (1, "ignored"))
        #expect(try client.sendEvent("stay") == (1, "ignored"), "a handler that leaves the tree and facts as they are")
        _ = try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("paid", .boolean(true))])])
        let first = try #require(client.waitForMessage(timeout: 5) { $0.member == "StackChanged" })
        #expect(try first.body()[0].uint64Value == 2 && first.body()[1].stringValue == "setfacts",
                "the first StackChanged is the SetFacts', not one of the ignored events")
    }

    @Test func aRequiredFactWithoutAGuardFailsTheCallAndChangesNothing() throws {
        let failed = try #require(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("buy")))
        #expect(failed.name == NavigatorErrorName(.guardFailed).fullName)
        #expect(failed.message.contains("'receipt'") && failed.message.contains("'paid'"), "\(failed.message)")
        #expect(client.navigatorError("Push", [.string("receipt"), .emptyParams]) == NavigatorErrorName(.guardFailed).fullName)
        #expect(try client.navigatorState().revision == 1)
        _ = try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("paid", .boolean(true))])])
        #expect(try client.sendEvent("buy").outcome == "applied")
        #expect(try client.navigatorRoutes() == ["home", "receipt"])
        // Turning the fact false removes the screen in the same change (cause setfacts).
        #expect(try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("paid", .boolean(false))])])[0].uint64Value == 4)
        #expect(try client.navigatorRoutes() == ["home"])
    }
}
