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

extension AppInfo {
    /// Reads `GetManagedObjects`' `a{oa{sa{sv}}}`: every app object that carries `org.navd.Navigator1`, sorted by
    /// name, each with all of its navigator's properties. Objects below the manager that are not apps are skipped.
    static func apps(dbusValue: DBusValue) throws(DBusError) -> [AppInfo] {
        guard let entries = dbusValue.dictEntries else {
            throw .invalidArgs("expected managed objects a{oa{sa{sv}}}, got a value of type '\(dbusValue.signature)'")
        }
        var apps: [AppInfo] = []
        for entry in entries {
            guard let path = entry.key.objectPathValue, let name = Navigator.appName(ofPath: path.rawValue),
                  let interfaces = entry.value.stringKeyedPairs,
                  let navigator = interfaces.first(where: { $0.0 == Navigator.interfaceName })
            else { continue }
            // An app the caller may not read carries only its Access.
            let isReadable = navigator.1.stringKeyedPairs?.contains { $0.0 == NavigatorProperty.revision.name } ?? false
            do {
                var app = AppInfo(
                    name: name, path: path,
                    properties: try NavigatorProperties(dbusValue: navigator.1, accessOnly: !isReadable))
                app.isReadable = isReadable
                apps.append(app)
            } catch {
                throw .invalidArgs("app \(name): \(error.message)")
            }
        }
        return apps.sorted { $0.name < $1.name }
    }
}

extension AppChange {
    /// The app an ObjectManager signal (`InterfacesAdded` `oa{sa{sv}}` or `InterfacesRemoved` `oas`) announces,
    /// when it concerns `org.navd.Navigator1` on an app's object; nil for any other.
    init?(member: String, _ values: [DBusValue]) {
        guard values.count == 2, let path = values[0].objectPathValue,
              let name = Navigator.appName(ofPath: path.rawValue)
        else { return nil }
        switch member {
        case "InterfacesAdded":
            guard let interfaces = values[1].stringKeyedPairs, interfaces.contains(where: { $0.0 == Navigator.interfaceName })
            else { return nil }
            self = .added(name)
        case "InterfacesRemoved":
            guard let interfaces = values[1].arrayValues?.compactMap(\.stringValue),
                  interfaces.contains(Navigator.interfaceName)
            else { return nil }
            self = .removed(name)
        default:
            return nil
        }
    }
}
