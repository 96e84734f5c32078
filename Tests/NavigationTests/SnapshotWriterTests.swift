import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// The snapshot writer: its bytes are a function of the state (the same in every process, the same as before its
/// lookups moved to `WordTable`), and `WordTable` agrees with the Dictionary it replaced.
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
    /// same bytes in every process. Before flows were numbered in id order, they were the same bytes as the writer
    /// made before `WordTable` (main at 54f4e96 and this writer, both with SWIFT_DETERMINISTIC_HASHING=1, gave
    /// 6881865026918174205 here). A change of the format changes this digest on purpose, with the format's version.
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

    /// The undo lists' trees that the writer numbers from the kept steps (SnapshotWriter+Export.swift) are written
    /// as the state holds them: with tabs switched between pushes (the same tabs under another selection), undo
    /// lists rebuilt by their trims (max-undo 3), undos and redos, every whole document and segment is the bytes
    /// of the same state decoded, whose steps say nothing of how they were made, and decodes to the state.
    @Test func undoTreesNumberedFromTheKeptStepsAreWrittenAsTheStateHoldsThem() throws {
        var graph = RouteGraph.demo
        graph.limits.maxUndo = 3
        var live = Coordinator(graph: graph)
        let tabs = ["news", "rainbow", "profile"]
        var segmentedThrough: UInt64?
        var checked = 0
        for step in 0..<90 {
            let op: Operation =
                switch step % 7 {
                case 0, 3: push("orange")
                case 1, 5: .selectTab(tabs[step % 3])
                case 2: present("modal", "sheet")
                case 4: step % 14 == 4 ? .undo : .dismiss
                default: step % 3 == 0 ? .redo : .pop
                }
            _ = try? live.perform(op, at: testTime + Int64(step))
            guard step % 6 == 5 else { continue }
            let whole = live.state.encodedSnapshot()
            let decoded = try NavigationState.decodeSnapshot(whole)
            #expect(decoded == live.state, "step \(step)")
            #expect(decoded.encodedSnapshot() == whole, "step \(step): the whole document")
            #expect(
                decoded.encodedSegment(newerThan: segmentedThrough) == live.state.encodedSegment(newerThan: segmentedThrough),
                "step \(step): the segment after \(segmentedThrough.map(String.init) ?? "none")")
            segmentedThrough = live.revision
            checked += 1
        }
        #expect(checked == 15 && live.state.undo.count >= 3 && live.revision > 60, "revision \(live.revision)")
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

    /// Random keys, many of them alike but for one word or the high bits, set, replaced and looked up, agree with a
    /// Dictionary of the same keys throughout, across the table's growth: keys of three words, of their first two,
    /// and of their first one.
    @Test func aWordTableAgreesWithADictionary() async {
        await propertyCheck(input: Gen.int(in: 0...1_000_000).array(of: 1...600)) { codes in
            Self.checkWordMap(codes) { a, b, c in (WordTripleKey(a: a, b: b, c: c), [a, b, c]) }
            Self.checkWordMap(codes) { a, b, _ in (WordPairKey(a: a, b: b), [a, b]) }
            Self.checkWordMap(codes) { a, _, _ in (WordKey(a: a), [a]) }
        }
    }

    /// A `WordMap` and a `WordTable` of the keys `key` makes of `codes` agree with a Dictionary of their words.
    static func checkWordMap<Key: WordTableKey>(_ codes: [Int], _ key: (UInt64, UInt64, UInt64) -> (Key, [UInt64])) {
        var map = WordMap<Key>()
        var table = WordTable<Key>(capacity: codes.count % 20)
        var model: [[UInt64]: Int] = [:]
        var numbers: [[UInt64]: Int] = [:]
        for (index, code) in codes.enumerated() {
            let small = UInt64(code % 64)
            let (key, words) = switch code % 4 {
            case 0: key(small, 0, 0)
            case 1: key(0, small, 0)
            case 2: key(small << 58, 0, small)
            default: key(UInt64(code), UInt64(code) << 32, 1 << 63)
            }
            #expect(map[key] == model[words])
            if code % 3 == 0 {
                map.set(key, index)
                model[words] = index
            } else {
                #expect(map.value(for: key) { index } == (model[words] ?? index))
                model[words] = model[words] ?? index
            }
            #expect(map.count == model.count)
            #expect(table.number(of: key) == numbers[words])
            let (number, isNew) = table.insert(key)
            #expect(isNew == (numbers[words] == nil))
            #expect(number == numbers[words] ?? numbers.count)
            numbers[words] = number
            #expect(table.keys[number] == key && table.count == numbers.count)
        }
        var byWords: [[UInt64]: Key] = [:]
        for code in codes {
            for (a, b, c) in [(UInt64(code % 64), 0, 0), (0, UInt64(code % 64), 0), (UInt64(code % 64) << 58, 0, UInt64(code % 64)),
                              (UInt64(code), UInt64(code) << 32, 1 << 63)] as [(UInt64, UInt64, UInt64)] {
                let (key, words) = key(a, b, c)
                byWords[words] = key
            }
        }
        for round in 0..<2 {
            for (words, key) in byWords {
                #expect(map[key] == model[words])
                #expect(table.number(of: key) == numbers[words])
            }
            if round == 0 {
                map.reserveCapacity(5_000)
                table.reserveCapacity(5_000)
            }
        }
    }
}
