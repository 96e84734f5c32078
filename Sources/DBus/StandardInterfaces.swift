/// The standard interfaces every exported object answers, declared like any other so that
/// their calls are signature-checked and introspected the same way.
public enum StandardInterfaces {
    /// `org.freedesktop.DBus.Peer`: Ping and GetMachineId.
    public static let peer = InterfaceDeclaration(
        name: "org.freedesktop.DBus.Peer",
        methods: [
            MethodDeclaration("Ping"),
            MethodDeclaration("GetMachineId", out: [ArgumentDeclaration("machine_uuid", "s")]),
        ])

    /// `org.freedesktop.DBus.Introspectable`: Introspect.
    public static let introspectable = InterfaceDeclaration(
        name: "org.freedesktop.DBus.Introspectable",
        methods: [MethodDeclaration("Introspect", out: [ArgumentDeclaration("xml_data", "s")])])

    /// `org.freedesktop.DBus.Properties`: Get, GetAll, Set and PropertiesChanged.
    public static let properties = InterfaceDeclaration(
        name: "org.freedesktop.DBus.Properties",
        methods: [
            MethodDeclaration(
                "Get", in: [ArgumentDeclaration("interface_name", "s"), ArgumentDeclaration("property_name", "s")],
                out: [ArgumentDeclaration("value", "v")]),
            MethodDeclaration(
                "GetAll", in: [ArgumentDeclaration("interface_name", "s")],
                out: [ArgumentDeclaration("properties", "a{sv}")]),
            MethodDeclaration(
                "Set",
                in: [
                    ArgumentDeclaration("interface_name", "s"), ArgumentDeclaration("property_name", "s"),
                    ArgumentDeclaration("value", "v"),
                ]),
        ],
        signals: [
            SignalDeclaration(
                "PropertiesChanged",
                [
                    ArgumentDeclaration("interface_name", "s"),
                    ArgumentDeclaration("changed_properties", "a{sv}"),
                    ArgumentDeclaration("invalidated_properties", "as"),
                ])
        ])

    /// `org.freedesktop.DBus.ObjectManager`: GetManagedObjects, InterfacesAdded and InterfacesRemoved.
    /// Answered only at paths made managers with `ObjectServer.addObjectManager(at:)`.
    public static let objectManager = InterfaceDeclaration(
        name: "org.freedesktop.DBus.ObjectManager",
        methods: [
            MethodDeclaration(
                "GetManagedObjects", out: [ArgumentDeclaration("objpath_interfaces_and_properties", "a{oa{sa{sv}}}")])
        ],
        signals: [
            SignalDeclaration(
                "InterfacesAdded",
                [ArgumentDeclaration("object_path", "o"), ArgumentDeclaration("interfaces_and_properties", "a{sa{sv}}")]),
            SignalDeclaration(
                "InterfacesRemoved", [ArgumentDeclaration("object_path", "o"), ArgumentDeclaration("interfaces", "as")]),
        ])

    /// The three every object answers, in the order introspection lists them.
    public static let all = [peer, introspectable, properties]
}
