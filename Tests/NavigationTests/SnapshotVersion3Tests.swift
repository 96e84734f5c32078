import Testing
@testable import Navigation
import RouteFiles

/// Format version 3 added flow instances (with their handlers and kept requests) and facts; versions 3 and 2 still read.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotVersion3Tests {
    @Test func aVersion2DocumentReadsWithTheFactsAtTheirDefaults() throws {
        // An untabbed tree with one screen, as version 2 wrote it.
        var document = ByteWriter()
        document.raw(Array("NVDS".utf8)); document.varint(2); document.varint(1); document.varint(2)
        document.count(1); document.count(1); document.string("#1"); document.string("home"); document.params([:])
        document.bool(false); document.varint(0); document.count(1); document.string(""); document.string("")
        document.count(1); document.byte(0); document.count(0)
        document.count(0); document.count(0); document.count(0)
        let state = try NavigationState.decodeSnapshot(document.bytes)
        #expect(state.tree.path == [entry("#1", "home", .root)] && state.facts.isEmpty && state.tree.flows.isEmpty)
        let graph = try RouteGraph.load(yaml: "root: home\nfacts:\n  f: { type: int, default: 3 }\nroutes:\n  home: {}\n", file: "g.yaml")
        #expect(Coordinator(graph: graph, restoring: state).facts == ["f": .int(3)])
    }

    @Test func handlersAndKeptRequestsRoundTrip() throws {
        var shop = try NestedFlowTests.shop()
        shop.must(send("buy", ["order": .int(5)]))
        shop.must(send("next"))
        var demo = Coordinator(graph: .demo)
        demo.must(.selectTab("profile"))
        demo.must(.apply([RawOperation(name: "push", arguments: ["route": .string("account")])], expectedRevision: 2))
        let documents = [shop.state, demo.state].flatMap { [(4, $0, $0.encodedSnapshot()), (3, $0, $0.encodedVersion3Snapshot())] }
        for (version, state, bytes) in documents {
            #expect(Array(bytes.prefix(5)) == Array("NVDS".utf8) + [UInt8(version)])
            #expect(try NavigationState.decodeSnapshot(bytes) == state)
            for length in stride(from: 0, to: bytes.count, by: 3) {
                #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(Array(bytes.prefix(length))) }
            }
            // A damaged document is refused or decodes to a state the model can still work on: never a crash.
            for position in 5..<bytes.count {
                var damaged = bytes
                damaged[position] ^= 0x5A
                guard let decoded = try? NavigationState.decodeSnapshot(damaged) else { continue }
                var coordinator = Coordinator(graph: state == shop.state ? shop.graph : demo.graph, restoring: decoded)
                _ = coordinator.reconcile(at: testTime)
                for op in [send("next"), send("succeeded"), .finish(output: "paid", params: ["receipt": .string("r")]), .undo, .pop, .dismiss] {
                    _ = try? coordinator.perform(op, at: testTime)
                }
            }
        }
        #expect(demo.state.tree.flows.values.first?.pending == .operation(.apply([RawOperation(name: "push", arguments: ["route": .string("account")])], expectedRevision: 0)))
        let onOutput = shop.state.tree.flows.values.first { $0.flow == "address" }?.onOutput
        #expect(onOutput?["chosen"] == .actions([.push(route: "payment", params: ["city": .output("city"), "order": .flow("order")])]))
    }

    @Test func newOperationsRoundTripInTheJournal() throws {
        let ops: [Navigation.Operation] = [
            send("next", from: "#2", ["x": .int(1)]), .send(source: "", event: "e", params: [:], expectedRevision: 9),
            .start(flow: "auth", params: ["p": .string("q")]), .finish(output: "done", params: [:]),
            .setFacts(["signed-in": .bool(true)]),
        ]
        for op in ops {
            let record = JournalRecord(revision: 3, cause: op.cause, time: testTime, operation: op)
            #expect(try JournalRecord.decode(record.encoded()) == record)
        }
        var version2 = JournalRecord(revision: 2, cause: "pop", time: 0, operation: .pop).encoded()
        version2[4] = 2
        #expect(try JournalRecord.decode(version2).operation == .pop)
    }
}
