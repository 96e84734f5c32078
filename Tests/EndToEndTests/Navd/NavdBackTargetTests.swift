import DBus
import Foundation
import NavdClient
import Testing
import TestSupport

/// The `BackTarget` property through the real navd: in `PropertiesChanged` exactly when it changed, the
/// same value `Get` reads, and read by busctl, gdbus and the client's `GetAll`.
@Suite("navd's BackTarget", .timeLimit(.minutes(2)))
struct NavdBackTargetTests {
    /// The bus and navd, stopped when the test's instance is released.
    let fixture: NavdOnPrivateBus
    var bus: PrivateBus { fixture.bus }
    let client: Connection
    let watcher: Connection

    init() throws {
        fixture = try NavdOnPrivateBus()
        client = try Connection(.address(fixture.bus.address))
        watcher = try Connection(.address(fixture.bus.address))
        try watcher.subscribeToNavigator()
    }

    /// `(sss)` as navd sends it.
    static func target(_ id: String, _ route: String, _ presentation: String) -> DBusValue {
        .structure([.string(id), .string(route), .string(presentation)])
    }

    /// Makes the change `member(arguments)` and returns the properties its `PropertiesChanged` named.
    func changedProperties(_ member: String, _ arguments: [DBusValue] = []) throws -> [String: DBusValue] {
        try client.navigator(member, arguments)
        let signal = try #require(watcher.waitForMessage(timeout: 5) { $0.kind == .signal && $0.member == "PropertiesChanged" })
        let pairs = try #require(try signal.body()[1].stringKeyedPairs)
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// The property read with `org.freedesktop.DBus.Properties.Get`.
    func backTarget() throws -> DBusValue {
        let reply = try client.call(Message.navigatorCall(
            "Get", [.string(Navigator.interfaceName), .string(NavigatorProperty.backTarget.name)],
            interface: StandardInterfaces.properties.name)).body()
        return try #require(reply.first).variantValue ?? reply[0]
    }

    @Test func propertiesChangedCarriesItWhenItChangesAndNotWhenItDoesNot() throws {
        #expect(try backTarget() == Self.target("", "", ""))
        let pushed = try changedProperties("Push", [.string("orange"), .emptyParams])  // #7
        #expect(pushed["BackTarget"] == Self.target("#2", "red", "root"))
        let replaced = try changedProperties("Replace", [.string("yellow"), .emptyParams])  // #8: the target stays red
        #expect(replaced["Top"] == .string("yellow") && replaced["BackTarget"] == nil, "\(replaced.keys.sorted())")
        let presented = try changedProperties("Present", [.string("modal"), .emptyParams, .string("sheet")])  // #9
        #expect(presented["BackTarget"] == Self.target("#8", "yellow", "push"))
        #expect(try backTarget() == Self.target("#8", "yellow", "push"), "Get reads what the signal announced")
        let dismissed = try changedProperties("Back")
        #expect(dismissed["BackTarget"] == Self.target("#2", "red", "root"))
        let popped = try changedProperties("Back")
        #expect(popped["BackTarget"] == Self.target("", "", ""))
        #expect(try backTarget() == Self.target("", "", ""))
        #expect(client.navigatorError("Back") == NavigatorErrorName(.atRoot).fullName, "an empty target: Back answers AtRoot")
    }

    @Test func busctlGdbusAndTheClientReadIt() throws {
        let push = ["--address=\(bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName,
                    "Push", "sa{sv}", "orange", "0"]
        #expect(try ChildProcess.run("/usr/bin/busctl", push, timeout: 20).status == 0)
        let busctl = try ChildProcess.run("/usr/bin/busctl", [
            "--address=\(bus.address)", "get-property", Navigator.busName, Navigator.objectPath.rawValue,
            Navigator.interfaceName, "BackTarget",
        ], timeout: 20)
        #expect(busctl.stdout == "(sss) \"#2\" \"red\" \"root\"\n", "\(busctl.stderr)")
        let gdbus = try ChildProcess.run("/usr/bin/gdbus", [
            "call", "--address", bus.address, "--dest", Navigator.busName, "--object-path", Navigator.objectPath.rawValue,
            "--method", "org.freedesktop.DBus.Properties.Get", Navigator.interfaceName, "BackTarget",
        ], timeout: 20)
        #expect(gdbus.stdout == "(<('#2', 'red', 'root')>,)\n", "\(gdbus.stderr)")
        let navigator = try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        #expect(try navigator.send(.properties).backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        try client.navigator("Pop")
        #expect(try navigator.send(.properties).backTarget == nil)
        let empty = try ChildProcess.run("/usr/bin/busctl", [
            "--address=\(bus.address)", "get-property", Navigator.busName, Navigator.objectPath.rawValue,
            Navigator.interfaceName, "BackTarget",
        ], timeout: 20)
        #expect(empty.stdout == "(sss) \"\" \"\" \"\"\n", "\(empty.stderr)")
    }
}
