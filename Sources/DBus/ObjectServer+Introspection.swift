extension ObjectServer {
    /// The introspection XML for `path`: the standard interfaces and every exported one
    /// (when something is exported there), then a `<node>` per child leading to exported
    /// objects, so `busctl tree` can walk from `/`.
    public func introspectionXML(for path: ObjectPath) -> String {
        var xml = XML.doctype + "\n<node>\n"
        let exported = objects[path] ?? []
        let interfaces =
            exported.isEmpty
            ? [StandardInterfaces.peer, StandardInterfaces.introspectable]
                + (isObjectManager(path) ? [StandardInterfaces.objectManager] : [])
            : standardInterfaces(at: path) + exported.map(\.declaration)
        for interface in interfaces { xml += interface.introspectionXML(indent: 2) }
        for child in childNames(of: path) { xml += "  <node name=\"\(XML.escape(child))\"/>\n" }
        xml += "</node>\n"
        return xml
    }
}
