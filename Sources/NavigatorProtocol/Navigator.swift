import DBus

/// The names of navd's public contract (`shared/design/dbus-api.md`), in one place: every other
/// Swift file takes the bus name, object path, interface and error names from here.
public enum Navigator {
    /// The well-known bus name navd owns.
    public static let busName = "org.navd.Navigator1"
    /// The one object navd exports.
    public static let objectPath = ObjectPath(unchecked: "/org/navd/Navigator1")
    /// The interface name.
    public static let interfaceName = "org.navd.Navigator1"
    /// The prefix of every navd error name.
    public static let errorPrefix = "org.navd.Navigator1.Error."
    /// navd's version, served as the `Version` property and printed by `navd --version`.
    public static let version = "0.1.0"

    /// The match rule for navd's `StackChanged`, from whoever owns `busName`.
    public static let stackChangedRule = MatchRule.signals(
        sender: busName, path: objectPath.rawValue, interface: interfaceName, member: stackChanged.name)
    /// The match rule for navd's `FlowFinished`, from whoever owns `busName`.
    public static let flowFinishedRule = MatchRule.signals(
        sender: busName, path: objectPath.rawValue, interface: interfaceName, member: flowFinished.name)
    /// The match rule for navd's `PropertiesChanged`, from whoever owns `busName`.
    public static let propertiesChangedRule = MatchRule.signals(
        sender: busName, path: objectPath.rawValue, interface: StandardInterfaces.properties.name,
        member: "PropertiesChanged")
    /// The match rule for ownership changes of `busName`.
    public static let nameOwnerChangedRule = MatchRule.nameOwnerChanged(busName)

    /// A method call of `method` to navd with `arguments`, checked against the method's declared
    /// in-signature (`InvalidArgs` naming both when they differ).
    public static func call(
        _ method: NavigatorMethod, _ arguments: [DBusValue] = [], destination: String = busName
    ) throws(DBusError) -> Message {
        let given = arguments.signature
        if given != method.declaration.inSignature {
            throw .invalidArgs("\(method.name) takes '\(method.declaration.inSignature)' but was given '\(given)'")
        }
        let message = try Message.methodCall(
            destination: destination, path: objectPath.rawValue, interface: interfaceName, member: method.name)
        if !arguments.isEmpty { try message.append(arguments) }
        return message
    }
}
