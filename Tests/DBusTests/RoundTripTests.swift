import DBus
import TestSupport
import Testing

/// Every type sent between two connections of this process over a private bus.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
struct RoundTripTests {
    let peers: TwoPeers

    init() throws { peers = try TwoPeers() }

    @Test func basicTypesRoundTrip() throws {
        let values: [DBusValue] = [
            .byte(0), .byte(255), .boolean(true), .boolean(false),
            .int16(.min), .uint16(.max), .int32(.min), .uint32(.max),
            .int64(.min), .int64(.max), .uint64(.max), .double(-1.5), .double(.infinity),
            .string(""), .string("ünïcödé ✓ 🚀"), .objectPath("/"), .objectPath("/org/example/Navigator1"),
            .signature(""), .signature("a(sssa{sv})"),
        ]
        #expect(try peers.roundTrip(values) == values)
    }

    @Test func containersRoundTrip() throws {
        let entry = DBusValue.structure([.string("id1"), .string("red"), .string("root"), .vardict([])])
        let values: [DBusValue] = [
            .stringArray([]),
            .array(element: "(sssa{sv})", []),
            .array(element: "(sssa{sv})", [entry, entry]),
            .dictionary(key: "s", value: "s", []),
            .stringDictionary([("b", "2"), ("a", "1")]),
            .dictionary(key: "t", value: "as", [DBusDictEntry(key: .uint64(1), value: .stringArray(["x"]))]),
            .array(element: "ay", [.array(element: "y", []), .array(element: "y", [.byte(1), .byte(2)])]),
        ]
        #expect(try peers.roundTrip(values) == values)
    }

    @Test func variantsAndDictsOfVariantsRoundTrip() throws {
        let values: [DBusValue] = [
            .variant(.int32(3)),
            .variant(.variant(.variant(.string("deep")))),
            .variant(.array(element: "v", [])),
            .vardict([
                ("id", .int64(7)), ("name", .string("n")), ("flag", .boolean(true)),
                ("nested", .vardict([("x", .double(1.25))])), ("list", .stringArray(["a", "b"])),
                ("inner", .variant(.uint64(9))),
            ]),
            .vardict([]),
        ]
        #expect(try peers.roundTrip(values) == values)
    }

    @Test func maximumLengthNamesRoundTrip() throws {
        let interface = "org." + String(repeating: "i", count: 251)
        let member = String(repeating: "M", count: 255)
        #expect(try peers.roundTrip([.string("x")], interface: interface, member: member) == [.string("x")])
        let busName = "org.navd." + String(repeating: "n", count: 246)
        #expect(busName.utf8.count == 255)
        try peers.receiver.requestName(busName)
        #expect(try peers.sender.nameOwner(busName) == peers.receiver.uniqueName)
        let longString = String(repeating: "s", count: 1 << 20)
        #expect(try peers.roundTrip([.string(longString)]) == [.string(longString)])
    }

    @Test func maximumNestingRoundTrips() throws {
        let values = [nestedArrays(32), nestedStructs(32), nestedVariants(64)]
        #expect(try peers.roundTrip(values) == values)
        // 32 arrays of 32 structs: the deepest signature the specification allows, 64 levels.
        var deepest = nestedStructs(32)
        for _ in 0..<32 { deepest = .array(element: deepest.signature, [deepest]) }
        #expect(try peers.roundTrip([deepest]) == [deepest])
        // A variant at the 64th level inside arrays.
        var mixed = DBusValue.variant(.int32(1))
        for _ in 0..<31 { mixed = .array(element: mixed.signature, [mixed]) }
        for _ in 0..<32 { mixed = .variant(mixed) }
        #expect(try peers.roundTrip([mixed]) == [mixed])
        #expect(peers.sender.isConnected, "the bus did not drop us for an invalid message")
    }

    @Test func nestingBeyondTheLimitIsRefusedNotCrashed() throws {
        let message = try Message.methodCall(destination: peers.receiver.uniqueName, path: "/", interface: nil, member: "M")
        for value in [nestedArrays(33), nestedStructs(33), nestedVariants(65)] {
            #expect(throws: DBusError.self) { try message.append([value]) }
        }
        var tooDeep = DBusValue.variant(.int32(1))
        for _ in 0..<32 { tooDeep = .array(element: tooDeep.signature, [tooDeep]) }
        for _ in 0..<32 { tooDeep = .variant(tooDeep) }
        #expect(throws: DBusError.self) { try message.append([tooDeep]) }
        #expect(peers.sender.isConnected)
    }
}
