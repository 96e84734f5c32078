import ClientCommandLine
import NavdClient
import Testing

@Suite("Param conversion and batches")
struct ParamConversionTests {
    @Test("values take the declared type; what does not parse stays a string", .timeLimit(.minutes(1)))
    func declaredTypes() throws {
        let params = try RouteInfo.params(
            fromAssignments: ["id=42", "ratio=0.5", "flag=true", "name=x=y", "bad=abc", "extra=7"],
            declaredTypes: ["id": "int", "ratio": "double", "flag": "bool", "name": "string", "bad": "int"])
        #expect(params == ["id": .int(42), "ratio": .double(0.5), "flag": .bool(true), "name": .string("x=y"),
                           "bad": .string("abc"), "extra": .string("7")])
        #expect(throws: ParamSyntaxError.self) { try RouteInfo.params(fromAssignments: ["novalue"], declaredTypes: [:]) }
        #expect(throws: ParamSyntaxError.self) { try RouteInfo.params(fromAssignments: ["=1"], declaredTypes: [:]) }
    }

    @Test("set-stack words use the link syntax with percent-decoding", .timeLimit(.minutes(1)))
    func screenWords() throws {
        let spec = try ScreenSpec(word: "news-item;id=7;title=a%20b", declaredTypes: { _ in ["id": "int"] })
        #expect(spec == ScreenSpec(route: "news-item", params: ["id": .int(7), "title": .string("a b")]))
    }

    @Test("a batch file becomes ops with navctl's names mapped and params typed", .timeLimit(.minutes(1)))
    func batch() throws {
        let json = try JSONValue.parse("""
            {"expect": 5, "ops": [
              {"op": "push", "route": "news-item", "params": {"id": "9"}},
              {"op": "pop-to", "target": "red"}, {"op": "tab", "tab": "news"}, {"op": "root"},
              {"op": "set-stack", "screens": ["red", {"route": "news-item", "params": {"id": 3}}]},
              {"op": "present", "route": "modal", "style": "sheet"}
            ]}
            """)
        let batch = try Batch(json: json, types: BatchParamTypes(routes: ["news-item": ["id": "int"]]))
        #expect(batch.expectedRevision == 5)
        #expect(batch.operations == [
            .push("news-item", params: ["id": .int(9)]), .popTo("red"), .selectTab("news"), .popToRoot,
            .setStack([ScreenSpec(route: "red"), ScreenSpec(route: "news-item", params: ["id": .int(3)])]),
            .present("modal", style: .sheet),
        ])
        #expect(batch.routesWithParams == ["news-item"])
    }

    @Test("an op encodes as (sa{sv}) with only the arguments it has", .timeLimit(.minutes(1)))
    func opEncoding() {
        let op = BatchOperation.push("red")
        #expect(op.dbusValue.signature == WireSignature.namedDictionary)
        #expect(op.dbusValue == RawOperation.dbusValue(name: "push", arguments: [("route", .string("red"))]))
    }
}
