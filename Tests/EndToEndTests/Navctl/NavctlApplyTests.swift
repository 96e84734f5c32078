import Foundation
import NavdClient
import TestSupport
import Testing

/// `navctl apply` takes every operation of the contract (`send`, `start`, `finish` and `setfacts` were not
/// readable from a batch file, and a `send` arrived without its event); a file that does not fit an op's
/// declaration is a usage error naming the op's index and the key, and nothing is sent.
@Suite("navctl apply takes every operation", .serialized, .timeLimit(.minutes(2)))
struct NavctlApplyTests {
    @Test("the steps' batch files read as their typed ops, and together cover every operation")
    func stepsCoverTheTable() throws {
        for step in ApplyEveryOperation.steps {
            #expect(try Batch(json: JSONValue.parse(step.json)).operations == step.ops, "\(step.json)")
        }
        let used = Set(ApplyEveryOperation.steps.flatMap { $0.ops.map(\.name) })
        #expect(used == Set(OperationDeclaration.all.map(\.name)))
    }

    @Test("each operation through navctl apply, against navd", .enabled(if: EndToEnd.navdAvailable))
    func everyOperation() throws {
        let fixture = try NavdOnPrivateBus()
        for (index, step) in ApplyEveryOperation.steps.enumerated() {
            let result = try fixture.navctl("apply", "-", "--json", standardInput: step.json)
            #expect(result.status == 0, "step \(index): \(result)")
            guard result.status == 0 else { return }
            let state = try result.json()
            #expect(state.string("cause") == "apply", "step \(index)")
            #expect(state.integer("revision") == Int64(index + 2), "step \(index): one revision per batch")
            #expect(state.string("tab") == step.tab, "step \(index): \(result.stdout)")
            #expect(state.pathRoutes == step.path, "step \(index): \(result.stdout)")
        }
        #expect(try fixture.client().send(.facts)["signed-in"] == .bool(true))
    }

    @Test("a send carries its params, and the facts take their declared types", .enabled(if: EndToEnd.navdAvailable))
    func paramsArrive() throws {
        let fixture = try NavdOnPrivateBus()
        let sent = try fixture.navctl("apply", "-", standardInput: """
            [{"op": "tab", "tab": "news"}, {"op": "send", "event": "call"},
             {"op": "send", "event": "failed", "params": {"message": "no line"}}]
            """)
        #expect(sent.stdout == "2 apply news: news-list > call-error\n", "\(sent)")
        #expect(try fixture.client().send(.getState).top?.params == ["message": .string("no line")])
        let facts = try fixture.navctl("apply", "-", standardInput: #"[{"op": "set-facts", "facts": {"signed-in": "yes"}}]"#)
        #expect(facts.status == 0, "\(facts)")
        #expect(try fixture.client().send(.facts)["signed-in"] == .bool(true), "converted as navctl facts converts")
    }

    @Test("a batch that does not fit an op's declaration is refused before anything is sent",
          .enabled(if: EndToEnd.navdAvailable))
    func refusals() throws {
        let fixture = try NavdOnPrivateBus()
        let cases: [(String, String)] = [
            (#"[{"op": "pop"}, {"op": "frobnicate"}]"#, "op 1: unknown op 'frobnicate'"),
            (#"[{"op": "send", "evnt": "next"}]"#, "op 0: send has no argument \"evnt\"; it takes event, source, params"),
            (#"[{"op": "send"}]"#, "op 0: send needs \"event\" (a string)"),
            (#"[{"op": "push", "route": "red"}, {"op": "start", "flow": 7}]"#, "op 1: \"flow\" of start must be a string, not a number"),
            (#"[{"op": "setfacts", "facts": ["signed-in"]}]"#, "op 0: \"facts\" of setfacts must be an object"),
        ]
        for (batch, message) in cases {
            let result = try fixture.navctl("apply", "-", standardInput: batch)
            #expect(result.status == 2, "\(batch): \(result)")
            #expect(result.stderr.contains(message), "\(batch): \(result)")
        }
        #expect(try fixture.client().send(.getState).revision == 1, "nothing was sent")
    }
}
