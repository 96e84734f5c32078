import DBus
import Testing

/// Values and validation without a bus.
@Suite struct ValueTests {
    @Test func signaturesAreComputedForEveryType() {
        #expect(DBusValue.vardict([("a", .int32(1))]).signature == "a{sv}")
        #expect(DBusValue.stringArray([]).signature == "as")
        #expect(DBusValue.structure([.string("x"), .uint64(1), .vardict([])]).signature == "(sta{sv})")
        #expect(DBusValue.array(element: "(sa{sv})", []).signature == "a(sa{sv})")
        #expect([DBusValue.uint64(1), .string("id")].signature == "ts")
    }

    @Test func signatureValidationUsesLibdbus() throws {
        // Literal arguments would pick init(stringLiteral:), so the texts go through variables.
        for text in ["a{vs}", "(", "{sv}", "a{(i)s}", String(repeating: "a", count: 33) + "i"] {
            #expect(throws: DBusError.self, "\(text)") { try Signature(text) }
        }
        #expect(try Signature(String(repeating: "a", count: 32) + "i").rawValue.count == 33)
        #expect(Signature("sa{sv}").isSingleCompleteType == false)  // a literal: checked, not thrown
        #expect(Signature("a{sv}").isSingleCompleteType)
    }

    @Test func objectPathsAreValidated() throws {
        for text in ["org/navd", "/org//navd", "/org/navd/", "/org/na-vd", ""] {
            #expect(throws: DBusError.self, "\(text)") { try ObjectPath(text) }
        }
        let valid = "/org/navd_1"
        #expect(try ObjectPath(valid).segments == ["org", "navd_1"])
    }

    @Test func messageNamesAreValidatedBeforeLibdbus() throws {
        #expect(throws: DBusError.self) { try Message.methodCall(destination: "no dots", path: "/", interface: nil, member: "M") }
        #expect(throws: DBusError.self) { try Message.methodCall(destination: nil, path: "/", interface: "orgx", member: "M") }
        #expect(throws: DBusError.self) { try Message.methodCall(destination: nil, path: "/", interface: nil, member: "Bad.Member") }
        #expect(throws: DBusError.self) { try Message.signal(path: "/", interface: "org.x.y", member: "") }
        // Reserved for libdbus' own messages: the bus would drop the sender.
        #expect(throws: DBusError.self) { try Message.signal(path: "/org/freedesktop/DBus/Local", interface: "org.x.y", member: "S") }
        #expect(throws: DBusError.self) { try Message.signal(path: "/", interface: "org.freedesktop.DBus.Local", member: "Disconnected") }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/", interface: "org.freedesktop.DBus.Local", member: "M")
        }
        let longest = "org." + String(repeating: "a", count: 251)
        #expect(longest.utf8.count == 255)
        _ = try Message.methodCall(destination: longest, path: "/", interface: longest, member: String(repeating: "M", count: 255))
        #expect(throws: DBusError.self) { try Message.methodCall(destination: nil, path: "/", interface: longest + "a", member: "M") }
        #expect(throws: DBusError.self) { try Message.methodCall(destination: nil, path: "/", interface: nil, member: String(repeating: "M", count: 256)) }
    }

    @Test func invalidValuesAreRefusedBeforeLibdbus() throws {
        let message = try Message.signal(path: "/", interface: "org.navd.Test", member: "S")
        let refused: [DBusValue] = [
            .string("nul\u{0}inside"),
            .objectPath(ObjectPath(unchecked: "not/a/path")),
            .signature(Signature(unchecked: "a{")),
            .array(element: "s", [.int32(1)]),
            .dictionary(key: "v", value: "s", []),
            .dictionary(key: "s", value: "v", [DBusDictEntry(key: .string("k"), value: .string("not a variant"))]),
            .structure([]),
            .array(element: Signature(unchecked: "("), []),
            nestedArrays(33),
            nestedStructs(33),
            nestedVariants(65),
        ]
        for value in refused {
            #expect(throws: DBusError.self, "\(value.signature) should be refused") { try message.append([value]) }
        }
        #expect(message.signature == "", "nothing was appended")
        try message.append([nestedArrays(32), nestedStructs(32), nestedVariants(64)])
        #expect(message.signature.hasPrefix(String(repeating: "a", count: 32) + "i"))
    }

    @Test func bodySignatureIsLimitedTo255Bytes() throws {
        let message = try Message.signal(path: "/", interface: "org.navd.Test", member: "S")
        #expect(throws: DBusError.self) { try message.append(Array(repeating: .byte(1), count: 256)) }
        try message.append(Array(repeating: .byte(1), count: 255))
        #expect(try message.body().count == 255)
    }

    @Test func accessorsReadTheirTypes() {
        #expect(DBusValue.uint32(5).uint64Value == 5)
        #expect(DBusValue.uint64(.max).int64Value == nil)
        #expect(DBusValue.int16(-3).int64Value == -3)
        #expect(DBusValue.string("x").uint64Value == nil)
        #expect(DBusValue.objectPath("/a").stringValue == nil)
        #expect(DBusValue.objectPath("/a").objectPathValue == "/a")
        #expect(DBusValue.signature("s").signatureValue == "s")
        #expect(DBusValue.uint64(1 << 63).int64Value == nil && DBusValue.uint64(5).int64Value == 5)
        #expect(DBusValue.variant(.boolean(true)).variantValue?.boolValue == true)
        let pairs = DBusValue.vardict([("id", .int64(7))]).stringKeyedPairs
        #expect(pairs?.first?.0 == "id" && pairs?.first?.1 == .int64(7))
    }

    @Test func matchRulesQuoteTheirValues() {
        let rule = MatchRule.signals(sender: "org.example.Navigator1", interface: "org.example.Navigator1", member: "StackChanged")
        #expect(rule.text == "type='signal',sender='org.example.Navigator1',interface='org.example.Navigator1',member='StackChanged'")
        #expect(MatchRule(type: nil, arguments: [0: "it's"]).text == #"arg0='it'\''s'"#)
        #expect(MatchRule.nameOwnerChanged("org.example.Navigator1").text.contains("arg0='org.example.Navigator1'"))
    }

    @Test func errorRepliesNeverFail() throws {
        let call = try Message.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        let error = call.makeError(DBusError(name: "not an error name", message: "bad\u{0}text"))
        #expect(error.kind == .error)
        #expect(error.bodyError == DBusError(name: DBusErrorName.failed, message: "badtext"))
    }
}
