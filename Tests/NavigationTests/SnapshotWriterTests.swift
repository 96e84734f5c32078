import Testing
@testable import Navigation
import RouteFiles

/// The snapshot writer: its bytes are a function of the state, the same in every process.
@Suite(.timeLimit(.minutes(2)))
struct SnapshotWriterTests {
    /// FNV-1a, 64 bits: a digest of documents that does not depend on the process.
    static func digest(_ documents: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for document in documents {
            for byte in document + [0xff] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }

    /// Whole documents, heads and segments of 40 random graphs after random calls, some with a change record, are the
    /// same bytes in every process. A change of the format changes this digest on purpose, with the format's version.
    @Test func theDocumentsOfRandomStatesAreTheSameBytesInEveryProcess() throws {
        var documents: [[UInt8]] = []
        var seed: UInt64 = 7
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33) % 1_000_000
        }
        for _ in 0..<40 {
            let code = next()
            var live = Coordinator(graph: ReloadPropertyTests.randomGraph(code, shape: code))
            var segmentedThrough: UInt64?
            for step in 0..<(60 + next() % 200) {
                guard (try? live.perform(ReloadPropertyTests.operation(next()), at: testTime + Int64(step))) != nil else { continue }
                if step % 5 == 0 {
                    live.record(
                        ChangeRecord(method: "Push", arguments: [UInt8(step % 251)], sender: ":1.\(step % 7)", uid: 1000, pid: 42, command: "navctl", details: ["event": "next"]),
                        forRevision: live.revision)
                }
                if step % 37 == 36 {
                    let snapshot = live.encodedIncrementally(segmentedThrough: segmentedThrough)
                    documents.append(snapshot.head)
                    documents.append(snapshot.segment ?? [])
                    segmentedThrough = snapshot.newest
                }
            }
            documents.append(live.encodedSnapshot())
        }
        #expect(documents.count > 100)
        #expect(Self.digest(documents) == 7_295_850_870_361_736_028, "digest of \(documents.count) documents, \(documents.reduce(0) { $0 + $1.count }) bytes")
    }

    /// A tree's flows are a dictionary, whose order depends on the process and on how it was built: the document does
    /// not (before, the writer numbered them in the dictionary's order).
    @Test func aTreesFlowsAreWrittenInTheSameOrderWhateverTheDictionarysOrder() throws {
        var coordinator = Coordinator(graph: RouteGraph.demo)
        for n in 0..<6 { _ = try coordinator.perform(.start(flow: "auth", params: [:]), at: testTime + Int64(n)) }
        let flows = coordinator.state.tree.flows
        #expect(flows.count == 6)
        var orders: Set<[String]> = []
        var documents: Set<[UInt8]> = []
        for capacity in [0, 8, 24, 64, 200, 1_000] {
            for newestFirst in [false, true] {
                var rebuilt = [String: FlowInstance](minimumCapacity: capacity)
                let keys = flows.keys.sorted()
                for key in newestFirst ? keys.reversed() : keys { rebuilt[key] = flows[key] }
                var state = coordinator.state
                state.tree.flows = rebuilt
                orders.insert(Array(rebuilt.keys))
                documents.insert(state.encodedSnapshot())
            }
        }
        #expect(orders.count > 1, "the dictionaries built differ in order (else this test shows nothing)")
        #expect(documents.count == 1)
    }
}
