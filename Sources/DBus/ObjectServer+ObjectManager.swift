/// `org.freedesktop.DBus.ObjectManager` for the objects below a manager path, and nodes that
/// exist with nothing exported at them (so that introspection lists them).
extension ObjectServer {
    /// Makes `path` answer `org.freedesktop.DBus.ObjectManager`: `GetManagedObjects` lists every
    /// object exported strictly below it with its exported interfaces and their properties (the
    /// standard interfaces are left out), and `interfacesAdded` / `interfacesRemoved` build the
    /// signals that announce objects appearing and going.
    public func addObjectManager(at path: ObjectPath) {
        managers.insert(path)
        addNode(path)
    }

    /// Makes `path` a node of the tree even when nothing is exported there, so that introspection
    /// of its parent lists it and calls to it answer the standard interfaces.
    public func addNode(_ path: ObjectPath) {
        do {
            try Validate.path(path.rawValue)
        } catch {
            preconditionFailure("cannot add the node \(path): \(error)")
        }
        nodes.insert(path)
    }

    /// Removes every interface exported at `path` (a node added with `addNode` stays).
    public func unexport(_ path: ObjectPath) {
        objects[path] = nil
        hooks[path] = nil
    }

    /// Whether `path` answers ObjectManager calls.
    func isObjectManager(_ path: ObjectPath) -> Bool { managers.contains(path) }

    /// The objects managed at `path`: `a{oa{sa{sv}}}`, sorted by path, interfaces in export order.
    func managedObjects(at path: ObjectPath, caller: Message? = nil) -> DBusValue {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        let below = exportedPaths.filter { $0.rawValue.hasPrefix(prefix) }
        return .dictionary(
            key: .objectPath, value: Signature(unchecked: "a{sa{sv}}"),
            below.map { DBusDictEntry(key: .objectPath($0), value: interfacesAndProperties(at: $0, caller: caller)) })
    }

    /// `a{sa{sv}}`: each exported interface at `path` with its readable properties that the
    /// object's hooks show `caller` (nil: a broadcast).
    func interfacesAndProperties(at path: ObjectPath, caller: Message? = nil) -> DBusValue {
        let exported = objects[path] ?? []
        return .dictionary(
            key: .string, value: Signature(unchecked: "a{sv}"),
            exported.map { DBusDictEntry(key: .string($0.declaration.name), value: properties(of: $0, at: path, caller: caller)) })
    }

    /// The nearest manager at or above `path`'s parent.
    private func manager(of path: ObjectPath) throws(DBusError) -> ObjectPath {
        var segments = path.segments
        while !segments.isEmpty {
            segments.removeLast()
            let candidate = ObjectPath(unchecked: "/" + segments.joined(separator: "/"))
            if managers.contains(candidate) { return candidate }
        }
        throw .invalidArgs("no object manager lies above '\(path)'")
    }

    /// `InterfacesAdded` from the manager above `path`, with everything exported at `path` now.
    /// The caller sends it.
    public func marshalledInterfacesAdded(_ path: ObjectPath) throws(DBusError) -> MarshalledMessage {
        let manager = try manager(of: path)
        return try MarshalledMessage.signal(
            path: manager.rawValue, interface: StandardInterfaces.objectManager.name, member: "InterfacesAdded",
            [.objectPath(path), interfacesAndProperties(at: path)], declared: Signature(unchecked: "oa{sa{sv}}"))
    }

    /// `InterfacesRemoved` from the manager above `path`, naming `interfaces`. The caller sends it.
    public func marshalledInterfacesRemoved(_ path: ObjectPath, interfaces: [String]) throws(DBusError) -> MarshalledMessage {
        let manager = try manager(of: path)
        return try MarshalledMessage.signal(
            path: manager.rawValue, interface: StandardInterfaces.objectManager.name, member: "InterfacesRemoved",
            [.objectPath(path), .stringArray(interfaces)], declared: Signature(unchecked: "oas"))
    }
}
