/// A strict reader of the XML a bus configuration file is (dbus-daemon's `busconfig`), as far as navd prints
/// one: the XML declaration, a DOCTYPE, comments, elements with attributes, whitespace between them. It
/// refuses what is not well-formed XML 1.0 (an unescaped `<`, `&` or quote, a character XML does not allow, a
/// `--` in a comment, tags that do not match) and what is not a bus configuration's shape: one `busconfig`
/// whose elements are `policy` (exactly one of `user`, `group`, `context`) and others dbus-daemon knows, with
/// `allow` and `deny` rules of known attributes inside policies.
public enum BusConfigCheck {
    /// An element: its name, its attributes in order, its child elements.
    public struct Element: Sendable {
        /// The element's name.
        public var name: String
        /// Its attributes, in order, values unescaped.
        public var attributes: [(String, String)]
        /// Its child elements.
        public var children: [Element]
    }

    /// What is wrong with a document, and where.
    public struct Problem: Error, CustomStringConvertible {
        /// The problem and its byte offset.
        public var description: String
    }

    /// The attributes dbus-daemon reads on `allow` and `deny` (its config-parser.c).
    static let ruleAttributes: Set<String> = [
        "send_interface", "send_member", "send_error", "send_destination", "send_destination_prefix", "send_path",
        "send_type", "send_requested_reply", "send_broadcast", "receive_interface", "receive_member", "receive_error",
        "receive_sender", "receive_path", "receive_type", "receive_requested_reply", "eavesdrop", "own", "own_prefix",
        "user", "group", "log",
    ]

    /// The top-level elements of a bus configuration other than `policy` (dbus-daemon's config-parser.c).
    static let otherTopLevel: Set<String> = [
        "user", "type", "fork", "keep_umask", "listen", "auth", "includedir", "include", "servicedir",
        "standard_session_servicedirs", "standard_system_servicedirs", "servicehelper", "pidfile", "syslog", "limit",
        "selinux", "apparmor", "allow_anonymous",
    ]

    /// The `busconfig` element of `text`, or the first problem found.
    public static func parse(_ text: String) throws(Problem) -> Element {
        var reader = XMLReader(bytes: Array(text.utf8))
        let root = try reader.document()
        guard root.name == "busconfig", root.attributes.isEmpty else { throw reader.problem("the root element is <\(root.name)>, not <busconfig>") }
        for element in root.children {
            if element.name == "policy" {
                guard element.attributes.count == 1, ["user", "group", "context", "at_console"].contains(element.attributes[0].0),
                      !element.attributes[0].1.isEmpty
                else { throw reader.problem("a <policy> needs exactly one of user, group, context") }
                if element.attributes[0].0 == "context", !["default", "mandatory"].contains(element.attributes[0].1) {
                    throw reader.problem("policy context '\(element.attributes[0].1)'")
                }
                for rule in element.children {
                    guard ["allow", "deny"].contains(rule.name), rule.children.isEmpty, !rule.attributes.isEmpty else {
                        throw reader.problem("<\(rule.name)> inside a <policy>")
                    }
                    for (name, _) in rule.attributes where !ruleAttributes.contains(name) {
                        throw reader.problem("attribute '\(name)' on <\(rule.name)>")
                    }
                }
            } else if !otherTopLevel.contains(element.name) {
                throw reader.problem("<\(element.name)> inside <busconfig>")
            }
        }
        return root
    }
}
