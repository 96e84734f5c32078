import DBus
import Navigation
import NavigatorProtocol
import RouteFiles

/// `navd --print-bus-policy` (docs/multi-user.md): a policy file for the system bus made from the route
/// files' `access:` keys, to replace the shipped `org.navd.Navigator1.conf` — which is this text for
/// route files without `access:` (`navd --print-bus-policy --apps-dir EMPTY`; a test compares them).
///
/// | who | may |
/// | --- | --- |
/// | root and navd's own user | own the name, call everything, receive every signal |
/// | everyone | `Introspectable`, `Peer`, `Properties`, `ObjectManager` (navd checks `Properties` itself); the readers of a navigator without `access:` or without a `read` list |
/// | group `navd` | every method of a navigator without `access:` |
/// | a navigator's `change` users and groups | every method on its object (`send_path`) |
/// | its `read` users and groups | its readers (`send_path`), and its signals (`receive_path`) |
///
/// A navigator with a `read` list: its signals are denied to everyone else, even through a match rule.
public enum BusPolicy {
    /// One navigator the policy covers: its object and its `access:` (nil: the shipped rules).
    public struct Navigator: Sendable {
        /// The navigator's object path.
        public var path: String
        /// How the policy's comments name it ("the default navigator", "app 'shop'").
        public var label: String
        /// Its `access:`, nil when its route file has none.
        public var access: Access?

        /// A navigator at `path`.
        public init(path: String, label: String, access: Access?) {
            self.path = path
            self.label = label
            self.access = access
        }
    }

    /// The navigators of the default route graph `defaultGraph` and of every app route file in
    /// `appsDirectory`; a route file that does not load is an error (a policy that left its rules
    /// out would open what the file closes).
    public static func navigators(defaultGraph: RouteGraph, appsDirectory: String?) throws(RouteFileError) -> [Navigator] {
        var navigators = [Navigator(path: NavigatorProtocol.Navigator.objectPath.rawValue, label: "the default navigator", access: defaultGraph.access)]
        guard let appsDirectory else { return navigators }
        for entry in folderEntries(appsDirectory).sorted() where entry.hasSuffix(".yaml") {
            let name = String(entry.dropLast(".yaml".count))
            guard NavigatorProtocol.Navigator.appNameProblem(name) == nil, let path = NavigatorProtocol.Navigator.appPath(name) else { continue }
            let graph = try RouteFileLoading.load(appsDirectory + "/" + entry, limitOverrides: []).get()
            navigators.append(Navigator(path: path.rawValue, label: "app '\(name)'", access: graph.graph.access))
        }
        return navigators
    }

    /// The methods everyone may call on a navigator without `access:`, and its `read` list on one with
    /// it: every method that changes nothing, but `Reload`.
    public static let readers: [String] = NavigatorMethod.all.filter { !$0.changesTree && $0 != .reload }.map(\.name)

    /// The policy file's text for `navigators`, with `serviceUser` as navd's own user.
    public static func text(_ navigators: [Navigator], serviceUser: String = "navd") -> String {
        let bus = NavigatorProtocol.Navigator.busName
        let interface = NavigatorProtocol.Navigator.interfaceName
        let closed = navigators.filter { $0.access != nil }
        var lines = [
            "<?xml version=\"1.0\"?> <!--*-nxml-*-->",
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"",
            " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">",
            "<!--",
            "  System-bus policy for navd, as navd prints it (option print-bus-policy) from the route files' access: keys.",
            "  Shipped as org.navd.Navigator1.conf (in /usr/share/dbus-1/system.d or /etc/dbus-1/system.d) for route",
            "  files without access: root and navd own the name and call everything; everyone may introspect, ping,",
            "  read properties, list the apps and call the methods that change nothing; group navd may call every",
            "  method. After adding or changing an access: key, print it over that file and reload the bus",
            "  (systemctl reload dbus).",
            "-->",
            "<busconfig>",
        ]
        for user in ["root", serviceUser] {
            lines += [
                "  <policy user=\"\(XML.escape(user))\">",
                "    <allow own=\"\(bus)\"/>",
                "    <allow send_destination=\"\(bus)\"/>",
                "    <allow receive_sender=\"\(bus)\"/>",
                "  </policy>",
            ]
        }
        lines.append("  <policy context=\"default\">")
        for standard in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.ObjectManager"] {
            lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(standard)\"/>")
        }
        for reader in Self.readers {
            lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_member=\"\(reader)\"/>")
        }
        for navigator in closed {
            lines.append("    <!-- \(navigator.label) has access: -->")
            lines.append("    <deny send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_path=\"\(navigator.path)\"/>")
            if navigator.access?.isOpenForReading == true {
                for reader in Self.readers {
                    lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_member=\"\(reader)\" send_path=\"\(navigator.path)\"/>")
                }
            } else {
                lines.append("    <deny receive_sender=\"\(bus)\" receive_type=\"signal\" receive_path=\"\(navigator.path)\"/>")
            }
        }
        lines.append("  </policy>")
        lines.append("  <policy group=\"\(XML.escape(serviceUser))\">")
        lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\"/>")
        for navigator in closed {
            lines.append("    <deny send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_path=\"\(navigator.path)\"/>")
            if navigator.access?.isOpenForReading == true {
                for reader in Self.readers {
                    lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_member=\"\(reader)\" send_path=\"\(navigator.path)\"/>")
                }
            }
        }
        lines.append("  </policy>")
        for navigator in closed {
            guard let access = navigator.access else { continue }
            for entry in access.change ?? [] {
                lines.append("  <!-- \(navigator.label): change -->")
                lines.append("  <policy \(attribute(entry))>")
                lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_path=\"\(navigator.path)\"/>")
                lines.append("    <allow receive_sender=\"\(bus)\" receive_path=\"\(navigator.path)\"/>")
                lines.append("  </policy>")
            }
            for entry in access.read ?? [] {
                lines.append("  <!-- \(navigator.label): read -->")
                lines.append("  <policy \(attribute(entry))>")
                for reader in Self.readers {
                    lines.append("    <allow send_destination=\"\(bus)\" send_interface=\"\(interface)\" send_member=\"\(reader)\" send_path=\"\(navigator.path)\"/>")
                }
                lines.append("    <allow receive_sender=\"\(bus)\" receive_path=\"\(navigator.path)\"/>")
                lines.append("  </policy>")
            }
        }
        lines.append("</busconfig>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `user="alice"` or `group="shop"` (a number as written: dbus-daemon takes ids too).
    private static func attribute(_ entry: Access.Entry) -> String {
        "\(entry.kind == .user ? "user" : "group")=\"\(XML.escape(entry.name))\""
    }
}
