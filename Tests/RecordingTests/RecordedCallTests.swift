import DBus
import JSON
import Navigation
import NavigatorProtocol
import Recording
import Testing

@Suite("Recorded calls: D-Bus arguments to recording JSON and back")
struct RecordedCallTests {
    func roundTrip(_ method: String, _ arguments: [DBusValue]) throws -> JSONValue {
        let json = try RecordedCall.json(method: method, arguments: arguments)
        let text = json.encoded()
        let back = try RecordedCall.arguments(method: method, json: try JSONValue.parse(text))
        #expect(back == arguments, "\(method): \(text)")
        return json
    }

    @Test("Push keeps its params' types, the unusual ones in the typed form", .timeLimit(.minutes(1)))
    func pushTypes() throws {
        let params = DBusValue.dictionary(key: .string, value: .variant, [
            DBusDictEntry(key: .string("a"), value: .variant(.int64(42))),
            DBusDictEntry(key: .string("b"), value: .variant(.double(2.0))),
            DBusDictEntry(key: .string("c"), value: .variant(.string("x"))),
            DBusDictEntry(key: .string("d"), value: .variant(.boolean(false))),
            DBusDictEntry(key: .string("e"), value: .variant(.int32(-3))),
            DBusDictEntry(key: .string("f"), value: .variant(.uint64(UInt64.max))),
        ])
        let json = try roundTrip("Push", [.string("news-item"), params])
        #expect(json.encoded() == #"{"route":"news-item","params":{"a":42,"b":2.0,"c":"x","d":false,"e":{"$type":"i","value":-3},"f":{"$type":"t","value":18446744073709551615}}}"#)
    }

    @Test("Apply is a batch file of navctl apply", .timeLimit(.minutes(1)))
    func applyBatch() throws {
        let ops = DBusValue.array(element: WireSignature.namedDictionary, [
            .structure([.string("push"), .vardict([("route", .string("red")),
                                                  ("params", (["id": .int(1)] as [String: ParamValue]).dbusValue)])]),
            .structure([.string("setstack"), .vardict([("screens", .array(element: WireSignature.namedDictionary, [
                .structure([.string("red"), [String: ParamValue]().dbusValue]),
                .structure([.string("news-item"), (["id": .int(2)] as [String: ParamValue]).dbusValue]),
            ]))])]),
            .structure([.string("revert"), .vardict([("revision", .uint64(9))])]),
            .structure([.string("push"), .vardict([("route", .string("red")), ("params", .array(element: .variant, []))])]),
        ])
        let json = try roundTrip("Apply", [ops, .uint64(12)])
        #expect(json.encoded().hasPrefix(#"{"ops":[{"op":"push","route":"red","params":{"id":1}},{"op":"setstack","screens":["red",{"route":"news-item","params":{"id":2}}]},{"op":"revert","revision":9},"#))
        #expect(json.encoded().hasSuffix(#""expect":12}"#))
    }

    @Test("every changing method with arguments round-trips", .timeLimit(.minutes(1)))
    func everyMethod() throws {
        let params = (["k": .string("v")] as [String: ParamValue]).dbusValue
        _ = try roundTrip("Pop", [])
        _ = try roundTrip("Open", [.string("/news/42")])
        _ = try roundTrip("Send", NavigatorMethod.send.declaration.inArguments.map { $0.signature == WireSignature.params ? params : $0.signature == "t" ? .uint64(3) : .string("s") })
        _ = try roundTrip("Revert", [.uint64(5), .uint64(0)])
        _ = try roundTrip("SetStack", [.array(element: WireSignature.namedDictionary, [.structure([.string("red"), params])])])
        _ = try roundTrip("SetFacts", [params])
    }

    @Test("a call that does not fit the contract is refused, naming it", .timeLimit(.minutes(1)))
    func refusals() throws {
        #expect(throws: RecordingError("Push takes (sa{sv}), not (s)")) { try RecordedCall.json(method: "Push", arguments: [.string("x")]) }
        #expect(throws: RecordingError("'Jump' is not a method of org.navd.Navigator1")) { try RecordedCall.json(method: "Jump", arguments: []) }
        #expect(throws: RecordingError("the args of Push need \"params\"")) {
            try RecordedCall.arguments(method: "Push", json: .object([("route", .string("x"))]))
        }
        #expect(throws: RecordingError("'e' in \"params\" of Push must be a whole number fitting D-Bus type 'i', not 3000000000")) {
            try RecordedCall.arguments(method: "Push", json: try JSONValue.parse(#"{"route":"x","params":{"e":{"$type":"i","value":3000000000}}}"#))
        }
    }
}
