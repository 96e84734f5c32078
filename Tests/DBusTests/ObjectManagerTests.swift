import DBus
import TestSupport
import Testing

/// `ObjectServer`'s ObjectManager and added nodes: each call crosses a private bus to be a received
/// message, and the server's answer is read back.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
struct ObjectManagerTests {
    let server = ObjectServer()
    let peers: TwoPeers

    init() throws {
        peers = try TwoPeers()
        server.addObjectManager(at: "/org/navd/Test1")
        server.addNode("/org/navd/Test1/apps")
        for (path, revision) in [("/org/navd/Test1/apps/b", UInt64(7)), ("/org/navd/Test1/apps/a", 3)] {
            server.export(
                ObjectPath(unchecked: path), interface: testInterface,
                implementation: InterfaceImplementation(
                    methods: [:],
                    getProperty: { name in
                        switch name {
                        case "Revision": .uint64(revision)
                        case "Label": .string(path)
                        default: nil
                        }
                    }, setProperty: nil))
        }
    }

    /// The call as the receiving end reads it.
    private func received(_ path: String, _ interface: String, _ member: String) throws -> Message {
        let message = try Message.methodCall(
            destination: peers.receiver.uniqueName, path: path, interface: interface, member: member)
        let serial = try peers.sender.send(message)
        peers.sender.flush()
        guard let received = peers.receiver.waitForMessage(matching: { $0.serial == serial && $0.member == member })
        else { throw HarnessError("the call did not arrive") }
        return received
    }

    private func call(_ path: String, _ interface: String, _ member: String, on server: ObjectServer? = nil) throws -> Message {
        try #require((server ?? self.server).handle(try received(path, interface, member)))
    }

    @Test func getManagedObjectsListsTheObjectsBelowWithTheirOwnInterfacesOnly() throws {
        let reply = try call("/org/navd/Test1", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        #expect(reply.signature == "a{oa{sa{sv}}}")
        let expected = DBusValue.dictionary(
            key: .objectPath, value: "a{sa{sv}}",
            ["/org/navd/Test1/apps/a", "/org/navd/Test1/apps/b"].map { path in
                DBusDictEntry(
                    key: .objectPath(ObjectPath(unchecked: path)),
                    value: .dictionary(key: .string, value: "a{sv}", [
                        DBusDictEntry(
                            key: .string("org.navd.Test1"),
                            value: .vardict([("Revision", .uint64(path.hasSuffix("a") ? 3 : 7)), ("Label", .string(path))])),
                    ]))
            })
        #expect(try reply.body() == [expected])
    }

    @Test func onlyTheManagerAnswersObjectManager() throws {
        let elsewhere = try call("/org/navd/Test1/apps/a", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        #expect(elsewhere.errorName == DBusErrorName.unknownInterface)
        let managerXML = try call("/org/navd/Test1", "org.freedesktop.DBus.Introspectable", "Introspect").body()
        let appXML = try call("/org/navd/Test1/apps/a", "org.freedesktop.DBus.Introspectable", "Introspect").body()
        #expect(managerXML.first?.stringValue?.contains("org.freedesktop.DBus.ObjectManager") == true)
        #expect(appXML.first?.stringValue?.contains("org.freedesktop.DBus.ObjectManager") == false)
    }

    @Test func anAddedNodeIsListedAndIntrospectableWithNothingBelowIt() throws {
        let empty = ObjectServer()
        empty.addNode("/org/navd/Test1/apps")
        let introspectable = "org.freedesktop.DBus.Introspectable"
        let parent = try call("/org/navd/Test1", introspectable, "Introspect", on: empty)
        #expect(try parent.body().first?.stringValue?.contains("<node name=\"apps\"/>") == true)
        #expect(try call("/org/navd/Test1/apps", introspectable, "Introspect", on: empty).errorName == nil)
        #expect(try call("/org/navd/Test1/apps/x", introspectable, "Introspect", on: empty).errorName == DBusErrorName.unknownObject)
    }

    @Test func unexportTakesAnObjectOffAndOutOfTheManagedObjects() throws {
        server.unexport("/org/navd/Test1/apps/a")
        let reply = try call("/org/navd/Test1", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects").body()
        guard case .dictionary(_, _, let entries)? = reply.first else {
            Issue.record("not a dictionary: \(reply)")
            return
        }
        #expect(entries.map(\.key) == [.objectPath("/org/navd/Test1/apps/b")])
        #expect(try call("/org/navd/Test1/apps/a", "org.freedesktop.DBus.Peer", "Ping").errorName == DBusErrorName.unknownObject)
        let xml = try call("/org/navd/Test1/apps", "org.freedesktop.DBus.Introspectable", "Introspect").body()
        #expect(xml.first?.stringValue?.contains("<node name=\"a\"/>") == false)
        #expect(xml.first?.stringValue?.contains("<node name=\"b\"/>") == true)
    }

    @Test func interfacesAddedAndRemovedComeFromTheManager() throws {
        let added = try Message(marshalled: server.marshalledInterfacesAdded("/org/navd/Test1/apps/b"))
        #expect(added.path == "/org/navd/Test1")
        #expect(added.interface == "org.freedesktop.DBus.ObjectManager" && added.member == "InterfacesAdded")
        #expect(added.signature == "oa{sa{sv}}")
        #expect(try added.body().first == .objectPath("/org/navd/Test1/apps/b"))
        let removed = try Message(marshalled: server.marshalledInterfacesRemoved("/org/navd/Test1/apps/b", interfaces: ["org.navd.Test1"]))
        #expect(removed.member == "InterfacesRemoved")
        #expect(try removed.body() == [.objectPath("/org/navd/Test1/apps/b"), .stringArray(["org.navd.Test1"])])
        #expect(throws: DBusError.self) { try ObjectServer().marshalledInterfacesAdded("/org/navd/Test1/apps/b") }
    }
}
