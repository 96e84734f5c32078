/// A bus match rule (what `AddMatch` takes), built from fields and quoted correctly.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    /// The message type to match: `signal` (the default), `method_call`, `method_return`, `error`.
    public var type: String? = "signal"
    /// The sender: a unique or well-known name.
    public var sender: String?
    /// The interface.
    public var interface: String?
    /// The member (signal or method name).
    public var member: String?
    /// The exact object path.
    public var path: String?
    /// Matches this path and every path below it.
    public var pathNamespace: String?
    /// String arguments to match by index (`arg0='…'`).
    public var arguments: [Int: String] = [:]

    /// A rule with the given fields; nil fields match anything.
    public init(
        type: String? = "signal", sender: String? = nil, interface: String? = nil,
        member: String? = nil, path: String? = nil, pathNamespace: String? = nil,
        arguments: [Int: String] = [:]
    ) {
        self.type = type
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arguments = arguments
    }

    /// Signals matching the given fields.
    public static func signals(
        sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil
    ) -> MatchRule {
        MatchRule(sender: sender, interface: interface, member: member, path: path)
    }

    /// The bus' `NameOwnerChanged` signals for one name (`arg0`).
    public static func nameOwnerChanged(_ name: String) -> MatchRule {
        MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            path: "/org/freedesktop/DBus", arguments: [0: name])
    }

    /// The rule's text, such as `type='signal',interface='org.example.Service1'`.
    public var text: String {
        var parts: [String] = []
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)=\(Self.quote(value))") }
        }
        add("type", type)
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path)
        add("path_namespace", pathNamespace)
        for index in arguments.keys.sorted() { add("arg\(index)", arguments[index]) }
        return parts.joined(separator: ",")
    }

    /// The rule's text.
    public var description: String { text }

    /// Quotes a value: inside single quotes everything is literal, so a quote is written
    /// as `'\''` (close, escaped quote, reopen), as the specification describes.
    static func quote(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// One `NameOwnerChanged` signal: a bus name changed hands.
public struct NameOwnerChange: Hashable, Sendable {
    /// The bus name.
    public var name: String
    /// The previous owner's unique name; nil when the name had none.
    public var oldOwner: String?
    /// The new owner's unique name; nil when the name now has none (the service went away).
    public var newOwner: String?

    /// A change of `name` from `oldOwner` to `newOwner`.
    public init(name: String, oldOwner: String?, newOwner: String?) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }
}

extension Message {
    /// The change carried by a bus `NameOwnerChanged` signal; nil for any other message,
    /// including a look-alike sent by a peer rather than the bus.
    public var nameOwnerChange: NameOwnerChange? {
        // Only the bus itself may speak for name owners; a peer could send a look-alike.
        guard kind == .signal, sender == "org.freedesktop.DBus", interface == "org.freedesktop.DBus",
            member == "NameOwnerChanged",
            signature == "sss", let values = try? body(), values.count == 3,
            let name = values[0].stringValue, let old = values[1].stringValue, let new = values[2].stringValue
        else { return nil }
        return NameOwnerChange(name: name, oldOwner: old.isEmpty ? nil : old, newOwner: new.isEmpty ? nil : new)
    }
}
