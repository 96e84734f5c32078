import DBus
import NavigatorProtocol

/// The contract's names as the suites that call navd raw use them (from `NavigatorProtocol`, like every
/// client), and the Apply ops they send, built in this one place.
public enum Contract {
    public static let busName = Navigator.busName
    public static let interface = Navigator.interfaceName
    public static let errorPrefix = Navigator.errorPrefix

    /// The short name of an error: `StaleRevision` for navd's, `InvalidArgs` for the standard ones.
    public static func shortErrorName(_ name: String) -> String {
        if name.hasPrefix(errorPrefix) { return String(name.dropFirst(errorPrefix.count)) }
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    /// One Apply op `(sa{sv})`.
    public static func op(_ name: String, _ arguments: [(String, DBusValue)] = []) -> DBusValue {
        .structure([.string(name), DBusValue.vardict(arguments)])
    }

    /// A list of Apply ops `a(sa{sv})`.
    public static func ops(_ ops: [DBusValue]) -> DBusValue {
        .array(element: WireSignature.namedDictionary, ops)
    }
}
