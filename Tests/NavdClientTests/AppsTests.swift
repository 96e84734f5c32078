import DBus
import NavigatorProtocol
import Testing
@testable import NavdClient

/// The client's reading of navd's apps: `GetManagedObjects` into `AppInfo`, the ObjectManager's signals into
/// `AppChange`, and the object a client of an app talks to.
@Suite("Apps in the client", .timeLimit(.minutes(1)))
struct AppsTests {
    /// `a{sa{sv}}` with the navigator interface carrying `revision` and `top`.
    func navigatorInterfaces(revision: UInt64, top: String) -> DBusValue {
        .dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [
            DBusDictEntry(key: .string(Navigator.interfaceName), value: .vardict([
                (NavigatorProperty.revision.name, .uint64(revision)), (NavigatorProperty.top.name, .string(top)),
                (NavigatorProperty.depth.name, .uint32(2)), (NavigatorProperty.topID.name, .string("#2")),
            ])),
        ])
    }

    func managedObjects(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .objectPath, value: Signature(unchecked: "a{sa{sv}}"),
                    entries.map { DBusDictEntry(key: .objectPath(ObjectPath(unchecked: $0.0)), value: $0.1) })
    }

    @Test("GetManagedObjects lists the app objects by name, with their properties; other objects are skipped")
    func listing() throws {
        let body = managedObjects([
            ("/org/navd/Navigator1/apps/shop", navigatorInterfaces(revision: 7, top: "cart")),
            ("/org/navd/Navigator1/apps/blog", navigatorInterfaces(revision: 3, top: "post")),
            ("/org/navd/Navigator1/elsewhere", navigatorInterfaces(revision: 1, top: "x")),
            ("/org/navd/Navigator1/apps/bare", .dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [])),
        ])
        let apps = try Reply.apps([body])
        #expect(apps.map(\.name) == ["blog", "shop"])
        #expect(apps.map(\.path.rawValue) == ["/org/navd/Navigator1/apps/blog", "/org/navd/Navigator1/apps/shop"])
        #expect(apps.map(\.revision) == [3, 7])
        #expect(apps.map(\.top) == ["post", "cart"])
        #expect(apps[1].properties.topID == "#2" && apps[1].properties.depth == 2)
        #expect(try Reply.apps([managedObjects([])]).isEmpty)
    }

    @Test("a listing of another shape, or a property of another type, is an unexpected reply")
    func wrongShapes() {
        #expect(throws: NavigatorError.self) { try Reply.apps([.string("no")]) }
        let wrongType: DBusValue = .dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [
            DBusDictEntry(key: .string(Navigator.interfaceName), value: .vardict([
                (NavigatorProperty.revision.name, .string("seven")),
            ])),
        ])
        #expect(throws: NavigatorError.self) {
            try Reply.apps([managedObjects([("/org/navd/Navigator1/apps/shop", wrongType)])])
        }
    }

    @Test("InterfacesAdded and InterfacesRemoved of the navigator interface on an app's object are app changes")
    func signals() {
        let path = DBusValue.objectPath(ObjectPath(unchecked: "/org/navd/Navigator1/apps/shop"))
        #expect(Reply.appChange(member: "InterfacesAdded", [path, navigatorInterfaces(revision: 1, top: "home")])
            == .added("shop"))
        #expect(Reply.appChange(member: "InterfacesRemoved", [path, .stringArray([Navigator.interfaceName])])
            == .removed("shop"))
        #expect(Reply.appChange(member: "InterfacesRemoved", [path, .stringArray(["org.example.Other"])]) == nil)
        let notAnApp = DBusValue.objectPath(ObjectPath(unchecked: "/org/navd/Navigator1/other"))
        #expect(Reply.appChange(member: "InterfacesRemoved", [notAnApp, .stringArray([Navigator.interfaceName])]) == nil)
        #expect(Reply.appChange(member: "Frobnicated", [path, .stringArray([Navigator.interfaceName])]) == nil)
        #expect(AppChange.removed("shop").app == "shop")
    }

    @Test("a client of an app calls its object; an invalid app name is refused before anything is sent")
    func paths() throws {
        let bus = BusAddress.address("unix:path=/nonexistent/navd-test-bus")
        #expect(try NavigatorCall.path(app: nil) == Navigator.objectPath)
        #expect(try NavigatorCall.path(app: "shop").rawValue == "/org/navd/Navigator1/apps/shop")
        do {
            _ = try NavigatorClient(bus: bus, app: "no-pe")
            Issue.record("an invalid app name was taken")
        } catch {
            #expect(error == .remote(name: DBusErrorName.invalidArgs, message: Navigator.appNameProblem("no-pe")!))
        }
        let message = try NavigatorCall.message(.pop, [], path: try NavigatorCall.path(app: "shop"), bus: "b")
        #expect(message.path == "/org/navd/Navigator1/apps/shop")
        #expect(message.member == "Pop")
    }
}
