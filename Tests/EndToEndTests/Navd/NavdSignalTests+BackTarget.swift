import DBus
import NavigatorProtocol
import Testing
import TestSupport

/// `BackTarget` in `PropertiesChanged` exactly when it changed, the same value `Get` reads.
extension NavdSignalTests {
    /// `BackTarget` `(sss)` as navd sends it.
    static func backTarget(_ id: String, _ route: String, _ presentation: String) -> DBusValue {
        .structure([.string(id), .string(route), .string(presentation)])
    }

    /// Makes the change `member(arguments)` and returns the properties its `PropertiesChanged` named.
    func changedProperties(_ member: String, _ arguments: [DBusValue] = []) throws -> [String: DBusValue] {
        try client.navigator(member, arguments)
        let signal = try #require(watcher.waitForMessage(timeout: 5) { $0.kind == .signal && $0.member == "PropertiesChanged" })
        let pairs = try #require(try signal.body()[1].stringKeyedPairs)
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// `BackTarget` read with `org.freedesktop.DBus.Properties.Get`.
    func backTargetProperty() throws -> DBusValue {
        let reply = try client.call(Message.navigatorCall(
            "Get", [.string(Navigator.interfaceName), .string(NavigatorProperty.backTarget.name)],
            interface: StandardInterfaces.properties.name)).body()
        return try #require(reply.first).variantValue ?? reply[0]
    }

    @Test func backTargetIsAnnouncedWhenItChangesAndNotWhenItDoesNot() throws {
        #expect(try backTargetProperty() == Self.backTarget("", "", ""))
        let pushed = try changedProperties("Push", [.string("orange"), .emptyParams])  // #7
        #expect(pushed["BackTarget"] == Self.backTarget("#2", "red", "root"))
        let replaced = try changedProperties("Replace", [.string("yellow"), .emptyParams])  // #8: the target stays red
        #expect(replaced["Top"] == .string("yellow") && replaced["BackTarget"] == nil, "\(replaced.keys.sorted())")
        let presented = try changedProperties("Present", [.string("modal"), .emptyParams, .string("sheet")])  // #9
        #expect(presented["BackTarget"] == Self.backTarget("#8", "yellow", "push"))
        #expect(try backTargetProperty() == Self.backTarget("#8", "yellow", "push"), "Get reads what the signal announced")
        let dismissed = try changedProperties("Back")
        #expect(dismissed["BackTarget"] == Self.backTarget("#2", "red", "root"))
        let popped = try changedProperties("Back")
        #expect(popped["BackTarget"] == Self.backTarget("", "", ""))
        #expect(try backTargetProperty() == Self.backTarget("", "", ""))
        #expect(client.navigatorError("Back") == NavigatorErrorName(.atRoot).fullName, "an empty target: Back answers AtRoot")
    }
}
