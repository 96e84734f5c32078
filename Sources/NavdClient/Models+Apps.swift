import DBus

/// One app navd serves, as `GetManagedObjects` on the default object lists it: its name, its
/// object and its navigator's properties (`navctl apps`).
public struct AppInfo: Hashable, Sendable {
    /// The app's name: its route file is `NAME.yaml` in navd's apps folder.
    public var name: String
    /// The app's navigator object, `/org/navd/Navigator1/apps/NAME`.
    public var path: ObjectPath
    /// The app navigator's `org.navd.Navigator1` properties, as the listing carried them.
    public var properties: NavigatorProperties
    /// Whether the listing carried the app's state; false when the caller may not read the app
    /// (navd then shows it only its `Access`).
    public var isReadable = true

    /// Makes an app from its fields.
    public init(name: String, path: ObjectPath, properties: NavigatorProperties) {
        self.name = name
        self.path = path
        self.properties = properties
    }

    /// The app navigator's current revision.
    public var revision: UInt64 { properties.revision }
    /// The route of the screen on top of the app's navigator.
    public var top: String { properties.top }
}

/// An app appearing or going, from the ObjectManager's `InterfacesAdded` / `InterfacesRemoved`
/// on navd's default object.
public enum AppChange: Hashable, Sendable {
    /// The app's navigator appeared (a route file added, or navd started serving it).
    case added(String)
    /// The app's navigator went (its route file was removed and navd reloaded).
    case removed(String)

    /// The app it concerns.
    public var app: String {
        switch self {
        case .added(let name), .removed(let name): return name
        }
    }
}

extension Reply {
    /// `GetManagedObjects`' `a{oa{sa{sv}}}`: every app object that carries `org.navd.Navigator1`,
    /// sorted by name. Objects below the manager that are not apps are skipped.
    static func apps(_ values: [DBusValue]) throws(NavigatorError) -> [AppInfo] {
        guard values.count == 1, let entries = values[0].dictEntries else {
            throw .unexpectedReply("GetManagedObjects answered '\(values.signature)', not 'a{oa{sa{sv}}}'")
        }
        var apps: [AppInfo] = []
        for entry in entries {
            guard let path = entry.key.objectPathValue, let name = Navigator.appName(ofPath: path.rawValue),
                  let interfaces = entry.value.stringKeyedPairs,
                  let navigator = interfaces.first(where: { $0.0 == Navigator.interfaceName })
            else { continue }
            var app = AppInfo(name: name, path: path, properties: try properties([navigator.1]))
            app.isReadable = navigator.1.stringKeyedPairs?.contains { $0.0 == NavigatorProperty.revision.name } ?? false
            apps.append(app)
        }
        return apps.sorted { $0.name < $1.name }
    }

    /// The app an ObjectManager signal (`InterfacesAdded` `oa{sa{sv}}` or `InterfacesRemoved` `oas`)
    /// announces, when it concerns `org.navd.Navigator1` on an app's object.
    static func appChange(member: String, _ values: [DBusValue]) -> AppChange? {
        guard values.count == 2, let path = values[0].objectPathValue,
              let name = Navigator.appName(ofPath: path.rawValue)
        else { return nil }
        switch member {
        case "InterfacesAdded":
            guard let interfaces = values[1].stringKeyedPairs, interfaces.contains(where: { $0.0 == Navigator.interfaceName })
            else { return nil }
            return .added(name)
        case "InterfacesRemoved":
            guard let interfaces = values[1].arrayValues?.compactMap(\.stringValue),
                  interfaces.contains(Navigator.interfaceName)
            else { return nil }
            return .removed(name)
        default:
            return nil
        }
    }
}
