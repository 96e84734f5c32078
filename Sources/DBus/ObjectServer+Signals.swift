extension ObjectServer {
    /// A signal `name` of `interface` from `path`, its values checked against the declared
    /// signature. Throws `InvalidArgs` when the interface is not exported there, the signal
    /// is not declared, or the values do not match. The caller sends it.
    public func signal(
        _ path: ObjectPath, interface: String, name: String, _ values: [DBusValue]
    ) throws(DBusError) -> Message {
        try Message(marshalled: marshalledSignal(path, interface: interface, name: name, values))
    }

    /// `signal`, left marshalled for `Connection.send(_:)`.
    public func marshalledSignal(
        _ path: ObjectPath, interface: String, name: String, _ values: [DBusValue]
    ) throws(DBusError) -> MarshalledMessage {
        let exported = try exportedInterface(path, interface)
        guard let declared = exported.index.signals[name] else {
            throw .invalidArgs("interface '\(interface)' declares no signal '\(name)'")
        }
        // Path, interface and signal name were validated when the interface was exported.
        do {
            return try MarshalledMessage.signal(path: path.rawValue, interface: interface, member: name, values, declared: declared)
        } catch let error where error.message.hasPrefix(BodyCheck.mismatchPrefix) {
            throw .invalidArgs("signal '\(name)' is declared '\(declared)' but got values of type '\(values.signature)'")
        }
    }

    /// A `org.freedesktop.DBus.Properties.PropertiesChanged` signal for `interface` at
    /// `path`, each property checked against its declaration. The caller sends it.
    public func propertiesChanged(
        _ path: ObjectPath, interface: String, changed: [(String, DBusValue)], invalidated: [String] = []
    ) throws(DBusError) -> Message {
        try Message(marshalled: marshalledPropertiesChanged(path, interface: interface, changed: changed, invalidated: invalidated))
    }

    /// `propertiesChanged`, left marshalled for `Connection.send(_:)`.
    public func marshalledPropertiesChanged(
        _ path: ObjectPath, interface: String, changed: [(String, DBusValue)], invalidated: [String] = []
    ) throws(DBusError) -> MarshalledMessage {
        let exported = try exportedInterface(path, interface)
        for (name, value) in changed {
            guard let property = exported.index.properties[name] else {
                throw .invalidArgs("interface '\(interface)' declares no property '\(name)'")
            }
            // Each value is checked against its declared type when the body is checked below.
            if !value.hasType(property.signature) {
                throw .invalidArgs(
                    "property '\(name)' is declared '\(property.signature)' but got a value of type '\(value.signature)'")
            }
        }
        for name in invalidated where exported.index.properties[name] == nil {
            throw .invalidArgs("interface '\(interface)' declares no property '\(name)'")
        }
        return try MarshalledMessage.signal(
            path: path.rawValue, interface: StandardInterfaces.properties.name, member: "PropertiesChanged",
            [.string(interface), .vardict(changed), .stringArray(invalidated)], declared: Self.propertiesChangedSignature)
    }

    private static let propertiesChangedSignature = Signature(unchecked: "sa{sv}as")

    private func exportedInterface(_ path: ObjectPath, _ interface: String) throws(DBusError) -> Exported {
        guard let exported = objects[path]?.first(where: { $0.declaration.name == interface }) else {
            throw .invalidArgs("interface '\(interface)' is not exported at '\(path)'")
        }
        return exported
    }
}
