import CDBus

extension ObjectServer {
    /// Answers Peer, Introspectable and Properties calls for `path`.
    func invokeStandard(_ message: Message, interface: InterfaceDeclaration, member: String, path: ObjectPath) -> Message {
        guard let method = interface.method(named: member) else {
            return message.makeError(Self.unknownMethod(member, interface: interface.name, message: message))
        }
        if let refusal = refusal(message, at: path, interface: interface.name, member: member) {
            return message.makeError(refusal)
        }
        do throws(DBusError) {
            let arguments = try Self.checkedArguments(
                message, method: method, inSignature: method.inSignature, interface: interface.name)
            let values: [DBusValue]
            switch (interface.name, member) {
            case ("org.freedesktop.DBus.Peer", "Ping"):
                values = []
            case ("org.freedesktop.DBus.Peer", "GetMachineId"):
                values = [.string(try Self.machineID())]
            case ("org.freedesktop.DBus.Introspectable", "Introspect"):
                values = [.string(introspectionXML(for: path))]
            case ("org.freedesktop.DBus.Properties", "Get"):
                values = [.variant(try propertyValue(at: path, arguments[0].stringValue!, arguments[1].stringValue!))]
            case ("org.freedesktop.DBus.Properties", "GetAll"):
                values = [try allProperties(at: path, arguments[0].stringValue!)]
            case ("org.freedesktop.DBus.ObjectManager", "GetManagedObjects"):
                values = [managedObjects(at: path, caller: message)]
            case ("org.freedesktop.DBus.Properties", "Set"):
                try setProperty(
                    at: path, arguments[0].stringValue!, arguments[1].stringValue!, arguments[2].variantValue!)
                values = []
            default:
                throw Self.unknownMethod(member, interface: interface.name, message: message)
            }
            return try message.makeReply(values)
        } catch {
            return message.makeError(error)
        }
    }

    /// The exported interface `name` at `path`; an empty name finds the interface declaring
    /// `property` (the specification allows an empty interface name for Get and Set).
    private func exported(at path: ObjectPath, _ name: String, property: String?) throws(DBusError) -> Exported {
        let candidates = objects[path] ?? []
        let found =
            name.isEmpty
            ? candidates.first { property == nil || $0.declaration.property(named: property!) != nil }
            : candidates.first { $0.declaration.name == name }
        guard let found else {
            throw DBusError(
                name: DBusErrorName.unknownInterface,
                message: "No such interface '\(name)' at object path '\(path)'")
        }
        return found
    }

    private func declaredProperty(_ exported: Exported, _ name: String) throws(DBusError) -> PropertyDeclaration {
        guard let property = exported.declaration.property(named: name) else {
            throw DBusError(
                name: DBusErrorName.unknownProperty,
                message: "No such property '\(name)' in interface '\(exported.declaration.name)'")
        }
        return property
    }

    private func propertyValue(at path: ObjectPath, _ interface: String, _ name: String) throws(DBusError) -> DBusValue {
        let target = try exported(at: path, interface, property: name)
        let property = try declaredProperty(target, name)
        guard let value = target.implementation.getProperty(name) else {
            throw DBusError(
                name: DBusErrorName.unknownProperty,
                message: "Property '\(name)' of interface '\(target.declaration.name)' has no value")
        }
        if value.signature != property.signature {
            throw .failed(
                "property '\(name)' produced a value of type '\(value.signature)' where '\(property.signature)' is declared")
        }
        return value
    }

    private func allProperties(at path: ObjectPath, _ interface: String) throws(DBusError) -> DBusValue {
        properties(of: try exported(at: path, interface, property: nil))
    }

    /// `a{sv}`: every property of an exported interface that has a value of its declared type; given
    /// `path`, only those its hooks show `caller` (nil: a broadcast).
    func properties(of target: Exported, at path: ObjectPath? = nil, caller: Message? = nil) -> DBusValue {
        var pairs: [(String, DBusValue)] = []
        for property in target.declaration.properties {
            if let path, !shows(property.name, at: path, to: caller) { continue }
            if let value = target.implementation.getProperty(property.name), value.signature == property.signature {
                pairs.append((property.name, value))
            }
        }
        return .vardict(pairs)
    }

    private func setProperty(
        at path: ObjectPath, _ interface: String, _ name: String, _ value: DBusValue
    ) throws(DBusError) {
        let target = try exported(at: path, interface, property: name)
        let property = try declaredProperty(target, name)
        guard property.access == .readWrite, let setter = target.implementation.setProperty else {
            throw DBusError(
                name: DBusErrorName.propertyReadOnly,
                message: "Property '\(name)' of interface '\(target.declaration.name)' is read-only")
        }
        if value.signature != property.signature {
            throw .invalidArgs(
                "Property '\(name)' of interface '\(target.declaration.name)' has type '\(property.signature)'"
                    + " but the value has type '\(value.signature)'")
        }
        try setter(name, value)
    }

    static func machineID() throws(DBusError) -> String {
        let (pointer, error) = withLibdbusError { error in dbus_try_get_local_machine_id(error) }
        guard let pointer else {
            throw .failed("cannot read the machine id: \(error?.message ?? "unknown error")")
        }
        defer { dbus_free(pointer) }
        return String(cString: pointer)
    }
}
