import DBus

/// The names of navd's public contract (`docs/dbus-api.md`), in one place: every other
/// Swift file takes the bus name, object path, interface and error names from here.
public enum Navigator {
    /// The well-known bus name navd owns.
    public static let busName = "org.navd.Navigator1"
    /// The default navigator's object (and navd's ObjectManager).
    public static let objectPath = ObjectPath(unchecked: "/org/navd/Navigator1")
    /// The node below which each app's navigator lives, one child per app.
    public static let appsPath = ObjectPath(unchecked: "/org/navd/Navigator1/apps")
    /// The most characters an app name may have.
    public static let maxAppNameLength = 64

    /// The object of the app `name`: `/org/navd/Navigator1/apps/NAME`, or nil when `name` is not a
    /// valid app name (1–64 characters from `[A-Za-z0-9_]`).
    public static func appPath(_ name: String) -> ObjectPath? {
        guard isValidAppName(name) else { return nil }
        return ObjectPath(unchecked: appsPath.rawValue + "/" + name)
    }

    /// The object of `app` (nil: the default navigator), or nil for an invalid app name.
    public static func objectPath(app: String?) -> ObjectPath? {
        guard let app else { return objectPath }
        return appPath(app)
    }

    /// The app whose object is `path`; nil for the default navigator and for any path that is not
    /// `/org/navd/Navigator1/apps/NAME` with a valid name.
    public static func appName(ofPath path: String) -> String? {
        let prefix = appsPath.rawValue + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let name = String(path.dropFirst(prefix.count))
        return isValidAppName(name) ? name : nil
    }

    /// Whether `name` is a valid app name: 1–64 characters from `[A-Za-z0-9_]` (one D-Bus path element).
    public static func isValidAppName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maxAppNameLength else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    /// Why `name` is not a valid app name, as a sentence; nil when it is one.
    public static func appNameProblem(_ name: String) -> String? {
        if isValidAppName(name) { return nil }
        if name.isEmpty { return "an app name cannot be empty" }
        if name.utf8.count > maxAppNameLength { return "the app name '\(name)' is longer than \(maxAppNameLength) characters" }
        return "the app name '\(name)' may hold only letters A-Z and a-z, digits and '_'"
    }
    /// The interface name.
    public static let interfaceName = "org.navd.Navigator1"
    /// The prefix of every navd error name.
    public static let errorPrefix = "org.navd.Navigator1.Error."
    /// navd's version, served as the `Version` property and printed by `navd --version`.
    public static let version = "0.1.0"

    /// The match rule for the default navigator's `StackChanged`, from whoever owns `busName`.
    public static let stackChangedRule = stackChangedRule(path: objectPath)
    /// The match rule for the default navigator's `FlowFinished`, from whoever owns `busName`.
    public static let flowFinishedRule = flowFinishedRule(path: objectPath)
    /// The match rule for the default navigator's `PropertiesChanged`, from whoever owns `busName`.
    public static let propertiesChangedRule = propertiesChangedRule(path: objectPath)

    /// The match rule for `StackChanged` from the navigator at `path`.
    public static func stackChangedRule(path: ObjectPath) -> MatchRule {
        MatchRule.signals(sender: busName, path: path.rawValue, interface: interfaceName, member: stackChanged.name)
    }
    /// The match rule for `FlowFinished` from the navigator at `path`.
    public static func flowFinishedRule(path: ObjectPath) -> MatchRule {
        MatchRule.signals(sender: busName, path: path.rawValue, interface: interfaceName, member: flowFinished.name)
    }
    /// The match rule for `PropertiesChanged` from the navigator at `path`.
    public static func propertiesChangedRule(path: ObjectPath) -> MatchRule {
        MatchRule.signals(
            sender: busName, path: path.rawValue, interface: StandardInterfaces.properties.name, member: "PropertiesChanged")
    }
    /// The match rule for the ObjectManager's `InterfacesAdded` and `InterfacesRemoved` (apps that
    /// appear and go), from whoever owns `busName`.
    public static let objectManagerRule = MatchRule.signals(
        sender: busName, path: objectPath.rawValue, interface: StandardInterfaces.objectManager.name, member: nil)
    /// The match rule for ownership changes of `busName`.
    public static let nameOwnerChangedRule = MatchRule.nameOwnerChanged(busName)

    /// A method call of `method` to navd with `arguments`, checked against the method's declared
    /// in-signature (`InvalidArgs` naming both when they differ).
    public static func call(
        _ method: NavigatorMethod, _ arguments: [DBusValue] = [], destination: String = busName, path: ObjectPath = objectPath
    ) throws(DBusError) -> Message {
        let given = arguments.signature
        if given != method.declaration.inSignature {
            throw .invalidArgs("\(method.name) takes '\(method.declaration.inSignature)' but was given '\(given)'")
        }
        let message = try Message.methodCall(
            destination: destination, path: path.rawValue, interface: interfaceName, member: method.name)
        if !arguments.isEmpty { try message.append(arguments) }
        return message
    }
}
