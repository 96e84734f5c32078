import DBus

// What a client asks beyond the contract's own methods: navd's properties through the standard Properties
// interface, its apps through the ObjectManager, and who owns navd's bus name through the bus itself. Each is a
// request like the contract's methods, sent by either client the same way.

extension NavigatorRequest {
    /// All of the navigator's properties at once (`org.freedesktop.DBus.Properties.GetAll`); each declared
    /// property must be there with its declared type.
    public static var properties: NavigatorRequest<NavigatorProperties> {
        .init(StandardInterfaces.properties.name, propertiesMember("GetAll"), [.string(Navigator.interfaceName)],
              on: .navigator) { values throws(DBusError) in try NavigatorProperties(dbusValue: values[0]) }
    }

    /// The `Facts` property (`org.freedesktop.DBus.Properties.Get`): every declared fact and its current value.
    public static var facts: NavigatorRequest<Params> {
        .init(StandardInterfaces.properties.name, propertiesMember("Get"),
              [.string(Navigator.interfaceName), .string(NavigatorProperty.facts.name)], on: .navigator) {
            values throws(DBusError) in
            try Params(dbusValue: values[0].variantValue ?? values[0])
        }
    }

    /// The apps navd serves (`GetManagedObjects` on the default object, whatever navigator the client acts
    /// on), sorted by name. The default navigator is not an app and is not listed.
    public static var apps: NavigatorRequest<[AppInfo]> {
        .init(StandardInterfaces.objectManager.name, StandardInterfaces.objectManager.method(named: "GetManagedObjects")!,
              [], on: .defaultNavigator) { values throws(DBusError) in try AppInfo.apps(dbusValue: values[0]) }
    }

    /// The unique name that owns navd's bus name now (the bus' `GetNameOwner`), or nil when navd is not on the bus.
    public static var navdOwner: NavigatorRequest<String?> {
        .init(BusDaemon.name, BusDaemon.getNameOwner, [.string(Navigator.busName)], on: .bus,
              replyForError: { error in error.name == DBusErrorName.nameHasNoOwner ? .some(nil) : nil }) {
            values throws(DBusError) in
            try values[0].requiredString("owner")
        }
    }

    /// The declaration of the Properties interface's `member`.
    private static func propertiesMember(_ member: String) -> MethodDeclaration {
        StandardInterfaces.properties.method(named: member)!
    }
}

/// The bus itself as a peer: the name, object and interface of `org.freedesktop.DBus`, and the one method of it a
/// client asks.
enum BusDaemon {
    /// The bus' own name, and the interface of its methods.
    static let name = "org.freedesktop.DBus"
    /// The bus' object.
    static let path = "/org/freedesktop/DBus"
    /// `GetNameOwner(s name) → s unique_name`.
    static let getNameOwner = MethodDeclaration(
        "GetNameOwner", in: [ArgumentDeclaration("name", "s")], out: [ArgumentDeclaration("unique_name", "s")])
}
