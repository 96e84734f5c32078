import ClientCommandLine
import NavdClient
import Testing

/// A batch file is read by the op table: every operation and every navctl spelling is taken, and nothing is
/// dropped — an unknown op or key, a value of the wrong kind, a missing argument or a key given twice is
/// refused naming the op's index and the key.
@Suite("batch files", .timeLimit(.minutes(1)))
struct BatchFileTests {
    func read(_ text: String, types: BatchParamTypes = BatchParamTypes()) throws -> [BatchOperation] {
        try Batch(json: JSONValue.parse(text), types: types).operations
    }

    func refusal(_ text: String) -> String? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("the coordination ops keep every argument (a send kept no event before)")
    func coordinationOps() throws {
        #expect(try read("""
            [{"op": "send", "event": "failed", "source": "#4", "params": {"message": "boom", "code": 7}},
             {"op": "start", "flow": "auth", "params": {"from": "menu"}}, {"op": "finish", "output": "signed-in"},
             {"op": "setfacts", "facts": {"signed-in": true}}]
            """) == [
                .send("failed", params: ["message": .string("boom"), "code": .int(7)], source: "#4"),
                .start("auth", params: ["from": .string("menu")]), .finish("signed-in"),
                .setFacts(["signed-in": .bool(true)]),
            ])
    }

    @Test("every spelling navctl gives an op names it, in any case")
    func spellings() throws {
        for declaration in OperationDeclaration.all {
            for word in [declaration.name, declaration.name.uppercased()] + declaration.spellings {
                #expect(OperationDeclaration.spelled(word)?.name == declaration.name, "\(word)")
            }
        }
        #expect(try read(#"[{"op": "set-facts", "facts": {}}, {"op": "facts", "facts": {}}, {"op": "DISMISS-ALL"}]"#)
            == [.setFacts([:]), .setFacts([:]), .dismissAll])
    }

    @Test("facts and route params take their declared types")
    func types() throws {
        let types = BatchParamTypes(routes: ["news-item": ["id": "int"]], facts: ["signed-in": "bool", "score": "double"])
        let ops = try read(#"""
            [{"op": "setfacts", "facts": {"signed-in": "yes", "score": 2}},
             {"op": "replace", "route": "news-item", "params": {"id": "4"}}]
            """#, types: types)
        #expect(ops == [.setFacts(["signed-in": .bool(true), "score": .double(2)]), .replace("news-item", params: ["id": .int(4)])])
        let batch = try Batch(json: JSONValue.parse(#"[{"op": "setfacts", "facts": {}}, {"op": "push", "route": "a", "params": {"b": 1}}]"#))
        #expect(batch.setsFacts && batch.routesWithParams == ["a"])
    }

    @Test("what does not fit is refused, naming the op's index and the key")
    func refusals() {
        #expect(refusal(#"[{"op": "pop"}, {"route": "red"}]"#) == "op 1: missing \"op\"")
        #expect(refusal(#"[{"op": "jump"}]"#)?.hasPrefix("op 0: unknown op 'jump'; use one of push, pop, popto") == true)
        #expect(refusal(#"[{"op": "send", "event": "next", "evnt": "x"}]"#)
            == "op 0: send has no argument \"evnt\"; it takes event, source, params")
        #expect(refusal(#"[{"op": "pop", "route": "red"}]"#) == "op 0: pop has no argument \"route\"; it takes no arguments")
        #expect(refusal(#"[{"op": "finish"}]"#) == "op 0: finish needs \"output\" (a string)")
        #expect(refusal(#"[{"op": "setstack"}]"#)
            == "op 0: setstack needs \"screens\" (an array of route names and {\"route\", \"params\"} objects)")
        #expect(refusal(#"[{"op": "send", "event": null}]"#) == "op 0: \"event\" of send must be a string, not null")
        #expect(refusal(#"[{"op": "push", "route": "a", "route": "b"}]"#) == "op 0: \"route\" is given twice")
        #expect(refusal(#"[{"op": "pop", "op": "back"}]"#) == "op 0: \"op\" is given twice")
        #expect(refusal(#"[{"op": 3}]"#) == "op 0: \"op\" must be a string, not a number")
        #expect(refusal(#"[{"op": "push", "route": "a", "params": {"x": [1]}}]"#)
            == "op 0: param 'x' of \"params\" of push must be a string, number or bool, not an array")
        #expect(refusal(#"[{"op": "setstack", "screens": [{"route": "a", "parms": {}}]}]"#)
            == "op 0: screen 0 of \"screens\" of setstack has \"route\" and \"params\", not \"parms\"")
        #expect(refusal(#"[{"op": "setstack", "screens": [7]}]"#)
            == "op 0: screen 0 of \"screens\" of setstack must be a route name or {\"route\", \"params\"}, not a number")
        #expect(refusal(#"{"ops": [], "expected": 3}"#) == "a batch object has \"ops\" and \"expect\", not \"expected\"")
        #expect(refusal(#"{"ops": 3}"#) == "a batch is an array of ops or {\"ops\": [...]}")
        #expect(refusal(#"[3]"#) == "op 0: an op is an object like {\"op\": \"push\", \"route\": \"red\"}")
    }
}
