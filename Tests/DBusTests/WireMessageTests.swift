import DBus
import Testing

/// Signals and replies are marshalled in Swift and loaded into libdbus whole: every type and
/// every alignment reads back as it was given, and a value of the wrong type is still refused.
struct WireMessageTests {
    static let path: ObjectPath = "/org/example/Wire"
    static let interface = "org.example.Wire1"
    static let types = [
        "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "v", "a(yt)", "at", "a{sv}", "a{ys}", "(ya(nx))",
        "aay", "v",
    ]
    static var everyType: String { types.joined() }

    static var values: [DBusValue] { [
        .byte(0xFE), .boolean(true), .int16(-2), .uint16(65_000), .int32(-70_000), .uint32(4_000_000_000),
        .int64(-5_000_000_000), .uint64(UInt64.max), .double(-0.25), .string("grüße"),
        .objectPath("/a/b"), .signature("a{sv}"), .variant(.uint16(9)),
        .array(element: "(yt)", [.structure([.byte(1), .uint64(2)]), .structure([.byte(3), .uint64(4)])]),
        .array(element: "t", []),
        .vardict([("list", .variant(.stringArray(["x", "y"]))), ("n", .int64(1))]),
        .dictionary(key: .byte, value: .string, [DBusDictEntry(key: .byte(7), value: .string(""))]),
        .structure([.byte(5), .array(element: "(nx)", [.structure([.int16(1), .int64(2)])])]),
        .array(element: "ay", [.array(element: "y", [.byte(1)]), .array(element: "y", [])]),
        .variant(.array(element: "(yt)", [])),
    ] }

    static func server() -> ObjectServer {
        let server = ObjectServer()
        let arguments = types.enumerated().map { ArgumentDeclaration("a\($0.offset)", $0.element) }
        server.export(
            path, interface: InterfaceDeclaration(name: interface, signals: [SignalDeclaration("Everything", arguments)]),
            implementation: InterfaceImplementation())
        return server
    }

    @Test func aSignalOfEveryTypeReadsBackAsGiven() throws {
        let signal = try Self.server().signal(Self.path, interface: Self.interface, name: "Everything", Self.values)
        #expect(signal.kind == .signal)
        #expect(signal.path == Self.path.rawValue)
        #expect(signal.interface == Self.interface)
        #expect(signal.member == "Everything")
        #expect(signal.signature == Self.everyType)
        #expect(try signal.body() == Self.values)
    }

    @Test func aValueOfTheWrongTypeIsRefused() throws {
        var values = Self.values
        values[3] = .int32(1)
        #expect(throws: DBusError.self) {
            try Self.server().signal(Self.path, interface: Self.interface, name: "Everything", values)
        }
        values = Self.values
        values[9] = .string("nul\0inside")
        #expect(throws: DBusError.self) {
            try Self.server().signal(Self.path, interface: Self.interface, name: "Everything", values)
        }
    }
}
