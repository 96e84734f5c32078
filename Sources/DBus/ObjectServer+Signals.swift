extension ObjectServer {
    /// A signal `name` of `interface` from `path`, its values checked against the declared
    /// signature. Throws `InvalidArgs` when the interface is not exported there, the signal
    /// is not declared, or the values do not match. The caller sends it.
    public func signal(
        _ path: ObjectPath, interface: String, name: String, _ values: [DBusValue]
    ) throws(DBusError) -> Message {
        let declaration = try exportedDeclaration(path, interface)
        guard let signal = declaration.signal(named: name) else {
            throw .invalidArgs("interface '\(interface)' declares no signal '\(name)'")
        }
        let produced = values.signature
        if produced != signal.signature {
            throw .invalidArgs("signal '\(name)' is declared '\(signal.signature)' but got values of type '\(produced)'")
        }
        let message = try Message.signal(path: path.rawValue, interface: interface, member: name)
        try message.append(values)
        return message
    }

    /// A `org.freedesktop.DBus.Properties.PropertiesChanged` signal for `interface` at
    /// `path`, each property checked against its declaration. The caller sends it.
    public func propertiesChanged(
        _ path: ObjectPath, interface: String, changed: [(String, DBusValue)], invalidated: [String] = []
    ) throws(DBusError) -> Message {
        let declaration = try exportedDeclaration(path, interface)
        for (name, value) in changed {
            guard let property = declaration.property(named: name) else {
                throw .invalidArgs("interface '\(interface)' declares no property '\(name)'")
            }
            if value.signature != property.signature {
                throw .invalidArgs(
                    "property '\(name)' is declared '\(property.signature)' but got a value of type '\(value.signature)'")
            }
        }
        for name in invalidated where declaration.property(named: name) == nil {
            throw .invalidArgs("interface '\(interface)' declares no property '\(name)'")
        }
        let message = try Message.signal(
            path: path.rawValue, interface: StandardInterfaces.properties.name, member: "PropertiesChanged")
        try message.append([.string(interface), .vardict(changed), .stringArray(invalidated)])
        return message
    }

    private func exportedDeclaration(_ path: ObjectPath, _ interface: String) throws(DBusError) -> InterfaceDeclaration {
        guard let exported = objects[path]?.first(where: { $0.declaration.name == interface }) else {
            throw .invalidArgs("interface '\(interface)' is not exported at '\(path)'")
        }
        return exported.declaration
    }
}
