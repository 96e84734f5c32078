import DBus
import NavigatorProtocol
import Testing
@testable import NavdClient

/// The client's reading of navd's apps: `GetManagedObjects` into `AppInfo`, the ObjectManager's signals into
/// `AppChange`, and the object a client of an app talks to.
@Suite("Apps in the client", .timeLimit(.minutes(1)))
struct AppsTests {
    /// `a{sa{sv}}` with the navigator interface carrying every property, `revision` and `top` as given;
    /// `replacing` swaps one property's value, and a nil value leaves it out.
    func navigatorInterfaces(revision: UInt64, top: String, replacing: (NavigatorProperty, DBusValue?)? = nil)
        -> DBusValue
    {
        let properties: [(NavigatorProperty, DBusValue)] = [
            (.revision, .uint64(revision)), (.depth, .uint32(2)), (.top, .string(top)), (.topID, .string("#2")),
            (.selectedTab, .string("")), (.tabs, .stringArray([])), (.canUndo, .boolean(false)),
            (.canRedo, .boolean(false)), (.states, .stringDictionary([])), (.version, .string(Navigator.version)),
            (.facts, Params().dbusValue), (.access, Navigator.accessValue(nil)), (.backTarget, BackTarget.dbusValue(nil)),
        ]
        let values = properties.compactMap { property, value -> (String, DBusValue)? in
            guard let replacing, replacing.0 == property else { return (property.name, value) }
            return replacing.1.map { (property.name, $0) }
        }
        return .dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [
            DBusDictEntry(key: .string(Navigator.interfaceName), value: .vardict(values)),
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
        let apps = try AppInfo.apps(dbusValue: body)
        #expect(apps.map(\.name) == ["blog", "shop"])
        #expect(apps.map(\.path.rawValue) == ["/org/navd/Navigator1/apps/blog", "/org/navd/Navigator1/apps/shop"])
        #expect(apps.map(\.revision) == [3, 7])
        #expect(apps.map(\.top) == ["post", "cart"])
        #expect(apps[1].properties.topID == "#2" && apps[1].properties.depth == 2)
        #expect(try AppInfo.apps(dbusValue: managedObjects([])).isEmpty)
    }

    @Test("an app the caller may not read carries only its Access: listed, not readable, its lists read")
    func accessOnly() throws {
        let access = DBusValue.dictionary(key: .string, value: Signature(unchecked: "as"), [
            DBusDictEntry(key: .string("change"), value: .stringArray(["alice", "@shop"])),
        ])
        let onlyAccess = DBusValue.dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [
            DBusDictEntry(key: .string(Navigator.interfaceName), value: .vardict([(NavigatorProperty.access.name, access)])),
        ])
        let apps = try AppInfo.apps(dbusValue: managedObjects([
            ("/org/navd/Navigator1/apps/shop", onlyAccess),
            ("/org/navd/Navigator1/apps/blog", navigatorInterfaces(revision: 3, top: "post")),
        ]))
        #expect(apps.map(\.name) == ["blog", "shop"])
        #expect(apps.map(\.isReadable) == [true, false])
        #expect(apps[1].properties.access == ["change": ["alice", "@shop"]])
        #expect(apps[1].revision == 0 && apps[1].top == "")
        let noAccess = DBusValue.dictionary(key: .string, value: Signature(unchecked: "a{sv}"), [
            DBusDictEntry(key: .string(Navigator.interfaceName), value: .vardict([])),
        ])
        #expect(throws: DBusError.invalidArgs("app shop: expected property Access of type 'a{sas}', got none")) {
            try AppInfo.apps(dbusValue: managedObjects([("/org/navd/Navigator1/apps/shop", noAccess)]))
        }
    }

    @Test("a listing of another shape, or a property of another type or missing, is refused, never read as a default")
    func wrongShapes() {
        #expect(throws: DBusError.self) { try AppInfo.apps(dbusValue: .string("no")) }
        let wrongType = navigatorInterfaces(revision: 7, top: "cart", replacing: (.revision, .string("seven")))
        #expect(throws: DBusError.invalidArgs("app shop: expected property Revision of type 't', got 's'")) {
            try AppInfo.apps(dbusValue: managedObjects([("/org/navd/Navigator1/apps/shop", wrongType)]))
        }
        let missing = navigatorInterfaces(revision: 7, top: "cart", replacing: (.depth, nil))
        #expect(throws: DBusError.invalidArgs("app shop: expected property Depth of type 'u', got none")) {
            try AppInfo.apps(dbusValue: managedObjects([("/org/navd/Navigator1/apps/shop", missing)]))
        }
    }

    @Test("InterfacesAdded and InterfacesRemoved of the navigator interface on an app's object are app changes")
    func signals() {
        let path = DBusValue.objectPath(ObjectPath(unchecked: "/org/navd/Navigator1/apps/shop"))
        #expect(AppChange(member: "InterfacesAdded", [path, navigatorInterfaces(revision: 1, top: "home")])
            == .added("shop"))
        #expect(AppChange(member: "InterfacesRemoved", [path, .stringArray([Navigator.interfaceName])])
            == .removed("shop"))
        #expect(AppChange(member: "InterfacesRemoved", [path, .stringArray(["org.example.Other"])]) == nil)
        let notAnApp = DBusValue.objectPath(ObjectPath(unchecked: "/org/navd/Navigator1/other"))
        #expect(AppChange(member: "InterfacesRemoved", [notAnApp, .stringArray([Navigator.interfaceName])]) == nil)
        #expect(AppChange(member: "Frobnicated", [path, .stringArray([Navigator.interfaceName])]) == nil)
        #expect(AppChange.removed("shop").app == "shop")
    }

    @Test("a client of an app calls its object; an invalid app name is refused before anything is sent")
    func paths() throws {
        let bus = BusAddress.address("unix:path=/nonexistent/navd-test-bus")
        #expect(try ObjectPath.navigator(app: nil) == Navigator.objectPath)
        #expect(try ObjectPath.navigator(app: "shop").rawValue == "/org/navd/Navigator1/apps/shop")
        do {
            _ = try NavigatorClient(bus: bus, app: "no-pe")
            Issue.record("an invalid app name was taken")
        } catch {
            #expect(error == .remote(name: DBusErrorName.invalidArgs, message: Navigator.appNameProblem("no-pe")!))
        }
        let message = try NavigatorRequest<UInt64>.pop.message(navigatorPath: try ObjectPath.navigator(app: "shop"), bus: "b")
        #expect(message.path == "/org/navd/Navigator1/apps/shop")
        #expect(message.member == "Pop")
    }
}
