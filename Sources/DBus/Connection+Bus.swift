import CDBus

extension Connection {
    /// Takes the well-known `name` (never queueing). When another connection owns it, throws
    /// `nameAlreadyOwned` saying who: "name X is already owned by :1.23 (pid N) on the session bus".
    public func requestName(_ name: String) throws(DBusError) {
        try Validate.busName(name)
        try requireConnected()
        let flags = UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE)
        let (result, error) = reading.withLock { _ in withLibdbusError { error in dbus_bus_request_name(raw, name, flags, error) } }
        if let error { throw error }
        switch result {
        case Int32(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER), Int32(DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER):
            return
        default:
            let owner = try? nameOwner(name)
            let pid = owner.flatMap { try? unixProcessID(of: $0) }
            var holder = owner ?? "another connection"
            if let pid { holder += " (pid \(pid))" }
            throw DBusError(
                name: DBusErrorName.nameAlreadyOwned,
                message: "name \(name) is already owned by \(holder) on \(busPhrase)")
        }
    }

    /// Gives up the well-known `name`; no error when this connection did not own it.
    public func releaseName(_ name: String) throws(DBusError) {
        try Validate.busName(name)
        try requireConnected()
        let (_, error) = reading.withLock { _ in withLibdbusError { error in dbus_bus_release_name(raw, name, error) } }
        if let error { throw error }
    }

    /// Asks the bus to route messages matching `rule` (match-rule syntax) to this connection.
    /// Blocks for the bus' answer; a malformed rule throws `MatchRuleInvalid`.
    public func addMatch(_ rule: String) throws(DBusError) {
        try Validate.string(rule, what: "match rule")
        try requireConnected()
        let (_, error) = reading.withLock { _ in withLibdbusError { error in dbus_bus_add_match(raw, rule, error) } }
        if let error { throw error }
    }

    /// Removes a rule added with `addMatch` (the same text).
    public func removeMatch(_ rule: String) throws(DBusError) {
        try Validate.string(rule, what: "match rule")
        try requireConnected()
        let (_, error) = reading.withLock { _ in withLibdbusError { error in dbus_bus_remove_match(raw, rule, error) } }
        if let error { throw error }
    }

    /// Adds a typed match rule.
    public func addMatch(_ rule: MatchRule) throws(DBusError) { try addMatch(rule.text) }

    /// Removes a typed match rule.
    public func removeMatch(_ rule: MatchRule) throws(DBusError) { try removeMatch(rule.text) }

    /// The unique name owning `name` (`GetNameOwner`), or nil when it has no owner.
    public func nameOwner(_ name: String) throws(DBusError) -> String? {
        try Validate.busName(name)
        do {
            let reply = try call(try busMethod("GetNameOwner", [.string(name)]))
            return try reply.body().first?.stringValue
        } catch where error.name == DBusErrorName.nameHasNoOwner {
            return nil
        }
    }

    /// The process id of the connection owning `name` (`GetConnectionUnixProcessID`).
    public func unixProcessID(of name: String) throws(DBusError) -> UInt32 {
        try Validate.busName(name)
        let reply = try call(try busMethod("GetConnectionUnixProcessID", [.string(name)]))
        guard let pid = try reply.body().first?.uint32Value else {
            throw .failed("the bus sent no process id for \(name)")
        }
        return pid
    }

    /// Starts following `name`'s owner: subscribes to its `NameOwnerChanged` signals first,
    /// then returns the current owner (nil when none), so no change can fall between the two.
    /// Read later changes with `Message.nameOwnerChange`.
    public func followNameOwner(_ name: String) throws(DBusError) -> String? {
        try Validate.busName(name)
        try addMatch(MatchRule.nameOwnerChanged(name))
        return try nameOwner(name)
    }

    /// Stops following `name`'s owner.
    public func stopFollowingNameOwner(_ name: String) throws(DBusError) {
        try removeMatch(MatchRule.nameOwnerChanged(name))
    }

    /// "the session bus", "the system bus" or the address, for sentences.
    var busPhrase: String {
        describedBus.hasSuffix(" bus") ? "the \(describedBus)" : describedBus
    }

    private func busMethod(_ member: String, _ arguments: [DBusValue]) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: member)
        try message.append(arguments)
        return message
    }
}
