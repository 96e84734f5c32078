@testable import DBus
import Navigation
import NavigatorProtocol
import Testing

/// `StackChanged` and `PropertiesChanged` written straight into the wire format (`SignalTemplate`,
/// `BodyWriter`) are byte for byte what their values marshal to through `ObjectServer`.
@Suite(.timeLimit(.minutes(1)))
struct SignalWriterTests {
    static let path = Navigator.objectPath
    static let params: [String: ParamValue] = [
        "zoom": .double(1.5), "id": .int(-42), "title": .string("grüße"), "on": .bool(true), "a": .string(""),
    ]
    static let paths: [[Entry]] = [
        [],
        [Entry(id: "#1", route: "red", presentation: .root)],
        [
            Entry(id: "#1", route: "red", presentation: .root, params: ["n": .int(1)]),
            Entry(id: "#22", route: "news-item", presentation: .push, params: params),
            Entry(id: "#333", route: "s", presentation: .sheet),
            Entry(id: "#4", route: "cover-route", presentation: .cover, params: ["x": .bool(false)]),
        ],
    ]

    static func server() -> ObjectServer {
        let server = ObjectServer()
        server.export(path, interface: Navigator.interface, implementation: InterfaceImplementation())
        return server
    }

    /// The message's bytes with its serial (bytes 8..<12, different for every message) zeroed.
    static func unnumbered(_ message: MarshalledMessage) -> [UInt8] {
        var bytes = message.bytes
        bytes.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        return bytes
    }

    @Test(arguments: 0..<3) func stackChangedWrittenFromThePathIsWhatItsValuesMarshalTo(_ which: Int) throws {
        let server = Self.server()
        let path = Self.paths[which]
        let template = try server.signalTemplate(Self.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name)
        let written = try template.message { body in
            body.uint64(UInt64(which) << 40 + 7)
            body.string("push")
            body.string(which == 1 ? "" : "rainbow")
            Entry.write(path: path, into: &body)
        }
        let marshalled = try server.marshalledSignal(
            Self.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name,
            [.uint64(UInt64(which) << 40 + 7), .string("push"), .string(which == 1 ? "" : "rainbow"), path.dbusValue])
        #expect(Self.unnumbered(written) == Self.unnumbered(marshalled))
        #expect(written.isAcceptedByLibdbus)
    }

    @Test func propertiesChangedWrittenVariantByVariantIsWhatItsValuesMarshalTo() throws {
        let server = Self.server()
        let template = try server.propertiesChangedTemplate(Self.path, interface: Navigator.interfaceName)
        let written = try template.message { body in
            body.string(Navigator.interfaceName)
            body.array(elementAlignment: 8) { body in
                body.entry("Revision") { $0.variant(basic: "t"); $0.uint64(UInt64.max) }
                body.entry("Depth") { $0.variant(basic: "u"); $0.uint32(3) }
                body.entry("Top") { $0.variant(basic: "s"); $0.string("orange") }
                body.entry("Tabs") { $0.variant(.stringArray(["a", "bc"])) }
                body.entry("CanUndo") { $0.variant(basic: "b"); $0.boolean(true) }
                body.entry("States") { $0.variant(.stringDictionary([("home", "red"), ("x", "y/z")])) }
                body.entry("Facts") { $0.variant(Self.params.dbusValue) }
            }
            body.stringArray([])
        }
        let marshalled = try server.marshalledPropertiesChanged(
            Self.path, interface: Navigator.interfaceName,
            changed: [
                ("Revision", .uint64(UInt64.max)), ("Depth", .uint32(3)), ("Top", .string("orange")),
                ("Tabs", .stringArray(["a", "bc"])), ("CanUndo", .boolean(true)),
                ("States", .stringDictionary([("home", "red"), ("x", "y/z")])), ("Facts", Self.params.dbusValue),
            ])
        #expect(Self.unnumbered(written) == Self.unnumbered(marshalled))
    }

    @Test func aStringHoldingNULIsRefused() throws {
        let server = Self.server()
        let template = try server.signalTemplate(Self.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name)
        #expect(throws: DBusError.self) {
            try template.message { body in
                body.uint64(1)
                body.string("nul\0inside")
                body.string("")
                Entry.write(path: [], into: &body)
            }
        }
        #expect(throws: DBusError.self) {
            try template.message { body in
                body.uint64(1)
                body.string("push")
                body.string("")
                Entry.write(path: [Entry(id: "#1", route: "r", presentation: .root, params: ["k": .string("a\0")])], into: &body)
            }
        }
    }

    @Test func aTemplateNeedsTheInterfaceAndSignalExportedAtThePath() {
        let server = Self.server()
        #expect(throws: DBusError.self) {
            try server.signalTemplate("/elsewhere", interface: Navigator.interfaceName, name: Navigator.stackChanged.name)
        }
        #expect(throws: DBusError.self) {
            try server.signalTemplate(Self.path, interface: Navigator.interfaceName, name: "NoSuchSignal")
        }
        #expect(throws: DBusError.self) { try server.propertiesChangedTemplate("/elsewhere", interface: Navigator.interfaceName) }
    }
}
