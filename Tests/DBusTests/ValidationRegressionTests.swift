import DBus
import Testing

/// The one-walk body check (`BodyCheck`) and the signature cache still refuse, before
/// libdbus sees them, every value libdbus would abort on — at any position, not only at the
/// top — and a refused append leaves the body unchanged.
@Suite(.timeLimit(.minutes(1))) struct ValidationRegressionTests {
    private func freshSignal() throws -> Message {
        try Message.signal(path: "/org/navd/Test", interface: "org.navd.Test", member: "S")
    }

    private func expectRefused(_ values: [DBusValue], _ comment: Comment) throws {
        let message = try freshSignal()
        #expect(throws: DBusError.self, comment) { try message.append(values) }
        #expect(message.signature == "", "a refused append leaves the body empty: \(comment)")
        // Refusal is not remembered as acceptance: a second try is refused the same way.
        #expect(throws: DBusError.self, comment) { try message.append(values) }
    }

    @Test func nulIsRefusedWherePerItSits() throws {
        let nul = "a\u{0}b"
        try expectRefused([.string("ok"), .string(nul)], "second top-level string")
        try expectRefused([.stringArray(["fine", "also fine", nul])], "third array element")
        try expectRefused([.stringDictionary([("k", nul)])], "dictionary value")
        try expectRefused([.stringDictionary([(nul, "v")])], "dictionary key")
        try expectRefused([.vardict([("k", .string(nul))])], "inside a variant")
        try expectRefused([.structure([.uint64(1), .string(nul)])], "struct field")
        try expectRefused([.variant(.variant(.stringArray([nul])))], "array in nested variants")
    }

    @Test func badPathsAndSignatureValuesAreRefusedAtAnyDepth() throws {
        let badPath = DBusValue.objectPath(ObjectPath(unchecked: "/trailing/"))
        let badSignature = DBusValue.signature(Signature(unchecked: "a{"))
        for bad in [badPath, badSignature] {
            try expectRefused([bad], "top level")
            try expectRefused([.array(element: bad.signature, [bad])], "array element")
            try expectRefused([.variant(bad)], "variant")
            try expectRefused([.vardict([("k", .structure([bad]))])], "struct in a variant")
        }
        try expectRefused([.signature(Signature(unchecked: "s\u{0}"))], "signature with NUL")
    }

    @Test func badDeclaredSignaturesAreRefused() throws {
        for element in ["(", "", "ss", "{sv}", "a", "m", "a{vs}", "()"] {
            try expectRefused([.array(element: Signature(unchecked: element), [])], "empty array of '\(element)'")
        }
        try expectRefused([.dictionary(key: "s", value: Signature(unchecked: ""), [])], "dictionary without value type")
        try expectRefused([.dictionary(key: "v", value: "s", [])], "variant key")
        try expectRefused([.dictionary(key: "(i)", value: "s", [])], "struct key")
        try expectRefused([.variant(.array(element: Signature(unchecked: "("), []))], "bad element type in a variant")
    }

    @Test func mismatchedElementTypesAreRefused() throws {
        try expectRefused([.array(element: "s", [.string("a"), .string("b"), .int32(1)])], "third element")
        try expectRefused([.array(element: "o", [.string("/not/a/path/type")])], "string where o")
        try expectRefused(
            [.array(element: "(si)", [.structure([.string("a"), .int32(1)]), .structure([.string("b")])])],
            "struct with a field missing")
        try expectRefused(
            [.array(element: "(si)", [.structure([.string("a"), .int32(1), .int32(2)])])], "struct with a field too many")
        try expectRefused([.array(element: "a{sv}", [.stringDictionary([])])], "a{ss} where a{sv}")
        try expectRefused([.array(element: "as", [.array(element: "s", [.int32(1)])])], "inner array's element")
        try expectRefused(
            [.dictionary(key: "s", value: "v", [DBusDictEntry(key: .string("k"), value: .variant(.int32(1))),
                                                DBusDictEntry(key: .int32(2), value: .variant(.int32(1)))])],
            "second key of the wrong type")
        try expectRefused([.variant(.array(element: "s", [.int32(1)]))], "mismatch inside a variant")
        try expectRefused([.structure([])], "empty struct")
    }

    @Test func nestingLimitsHoldThroughVariantsAndArrays() throws {
        try expectRefused([nestedArrays(33)], "33 arrays")
        try expectRefused([nestedStructs(33)], "33 structs")
        try expectRefused([nestedVariants(65)], "65 variants")
        // 30 arrays then 35 variants: each limit alone is kept, the total of 65 is not.
        var deep = nestedVariants(35)
        for _ in 0..<30 { deep = .array(element: deep.signature, [deep]) }
        try expectRefused([deep], "30 arrays around 35 variants")
        var fits = nestedVariants(34)
        for _ in 0..<30 { fits = .array(element: fits.signature, [fits]) }
        let message = try freshSignal()
        try message.append([fits])
        #expect(try message.body() == [fits])
    }

    @Test func validBodiesStillRoundTripThroughTheCache() throws {
        let values: [DBusValue] = [
            .uint64(7), .string("push"), .string("main"),
            .array(element: "(sssa{sv})", [.structure([.string("id"), .string("r"), .string("push"), .vardict([("k", .int64(1))])])]),
        ]
        for _ in 0..<3 {  // the second and third appends take the cached signature
            let message = try freshSignal()
            try message.append(values)
            #expect(message.signature == "tssa(sssa{sv})")
            #expect(try message.body() == values)
        }
        // A message appended to twice still keeps the 255-byte limit over both appends.
        let message = try freshSignal()
        try message.append(Array(repeating: .byte(1), count: 200))
        #expect(throws: DBusError.self) { try message.append(Array(repeating: .byte(1), count: 56)) }
        try message.append(Array(repeating: .byte(1), count: 55))
        #expect(message.signature.utf8.count == 255)
    }

    @Test func serverSignalsCheckValuesAgainstTheDeclaration() throws {
        let server = ObjectServer()
        let path: ObjectPath = "/org/navd/Test"
        server.export(
            path,
            interface: InterfaceDeclaration(
                name: "org.navd.Test",
                signals: [SignalDeclaration("Changed", [ArgumentDeclaration("revision", "t"), ArgumentDeclaration("path", "a(sa{sv})")])],
                properties: [PropertyDeclaration("Revision", "t"), PropertyDeclaration("Tags", "as")]),
            implementation: InterfaceImplementation())
        let good: [DBusValue] = [.uint64(1), .array(element: "(sa{sv})", [.structure([.string("r"), .vardict([])])])]
        #expect(try server.signal(path, interface: "org.navd.Test", name: "Changed", good).body() == good)
        let wrongType = [DBusValue.uint32(1), good[1]]
        let error = #expect(throws: DBusError.self) { try server.signal(path, interface: "org.navd.Test", name: "Changed", wrongType) }
        #expect(error?.message.contains("declared 'ta(sa{sv})'") == true)
        #expect(throws: DBusError.self) { try server.signal(path, interface: "org.navd.Test", name: "Changed", [good[0]]) }
        #expect(throws: DBusError.self) { try server.signal(path, interface: "org.navd.Test", name: "Changed", good + [.uint64(2)]) }
        let nulInside: [DBusValue] = [.uint64(1), .array(element: "(sa{sv})", [.structure([.string("r\u{0}"), .vardict([])])])]
        #expect(throws: DBusError.self) { try server.signal(path, interface: "org.navd.Test", name: "Changed", nulInside) }
        // PropertiesChanged: each value has its declared type, and its contents are checked too.
        #expect(throws: DBusError.self) {
            try server.propertiesChanged(path, interface: "org.navd.Test", changed: [("Tags", .array(element: "s", [.int32(1)]))])
        }
        #expect(throws: DBusError.self) {
            try server.propertiesChanged(path, interface: "org.navd.Test", changed: [("Tags", .stringArray(["x\u{0}"]))])
        }
        #expect(throws: DBusError.self) {
            try server.propertiesChanged(path, interface: "org.navd.Test", changed: [("Tags", .array(element: "o", []))])
        }
        let changed = try server.propertiesChanged(
            path, interface: "org.navd.Test", changed: [("Revision", .uint64(3)), ("Tags", .stringArray(["a"]))])
        #expect(try changed.body()
            == [.string("org.navd.Test"), .vardict([("Revision", .uint64(3)), ("Tags", .stringArray(["a"]))]), .stringArray([])])
    }
}
