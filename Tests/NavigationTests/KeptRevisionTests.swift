import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// The kept revisions (docs/devtools.md): the current one, every revision History lists and the base, each read
/// back as it was right after it was answered, in memory, through a snapshot and through journal replay.
@Suite(.timeLimit(.minutes(2)))
struct KeptRevisionTests {
    /// The demo graph with a short history, so that steps drop out and the base moves.
    static func graph(maxHistory: Int = 6) -> RouteGraph {
        var graph = RouteGraph.demo
        graph.limits.maxHistory = maxHistory
        return graph
    }

    /// A mix of changes on the demo graph: screens, layers, tabs, flows (a guard's), facts, undo and redo.
    static let script: [Navigation.Operation] = [
        .push(route: "orange", params: [:]), .selectTab("profile"), .push(route: "account", params: [:]),
        .send(source: "", event: "succeeded", params: [:], expectedRevision: 0), .push(route: "account", params: [:]),
        .present(route: "modal", params: [:], style: "sheet"), .undo, .undo, .redo, .selectTab("rainbow"),
        .push(route: "yellow", params: [:]), .setFacts(["signed-in": .bool(false)]), .selectTab("profile"),
        .send(source: "", event: "log-in", params: [:], expectedRevision: 0), .back, .open("end"),
    ]

    /// What the readers answered right after the current revision.
    static func observed(_ coordinator: Coordinator) -> StateAtRevision {
        StateAtRevision(
            revision: coordinator.revision, selectedTab: coordinator.selectedTab, nodes: coordinator.nodes,
            facts: coordinator.facts, flows: coordinator.flows)
    }

    /// Runs the script, returning the coordinator and what was observed after each revision.
    static func run(maxHistory: Int = 6) -> (Coordinator, [UInt64: StateAtRevision]) {
        var coordinator = Coordinator(graph: graph(maxHistory: maxHistory))
        var seen = [coordinator.revision: observed(coordinator)]
        for (index, op) in script.enumerated() {
            _ = try? coordinator.perform(op, at: testTime + Int64(index))
            seen[coordinator.revision] = observed(coordinator)
        }
        return (coordinator, seen)
    }

    /// Every kept revision reads back as observed; the others are RevisionNotKept naming the range.
    static func expectKept(_ coordinator: Coordinator, _ seen: [UInt64: StateAtRevision], maxHistory: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let listed = coordinator.history(limit: maxHistory).map(\.revision)
        let oldest = listed.last.map { $0 - 1 } ?? coordinator.revision  // the base: right before the oldest listed
        for revision in oldest...coordinator.revision {
            #expect((try? coordinator.state(at: revision)) == seen[revision], "revision \(revision)", sourceLocation: sourceLocation)
        }
        #expect((try? coordinator.state(at: 0)) == seen[coordinator.revision], sourceLocation: sourceLocation)
        for revision in [oldest - 1, coordinator.revision + 1, 0xFFFF_FFFF] where revision != 0 {
            #expect(throws: NavigationError.revisionNotKept(
                "revision \(revision) is not kept: this navigator keeps revisions \(oldest) to \(coordinator.revision)"),
                sourceLocation: sourceLocation) { try coordinator.state(at: revision) }
        }
    }

    /// A trim hands the steps it cut to the state, which releases them only when asked, a slice at a time; what is
    /// kept reads back the same whatever is still waiting to be released.
    @Test func trimmedStepsWaitForTheirReleaseAndChangeNothingKept() throws {
        var coordinator = Coordinator(graph: Self.graph(maxHistory: 4))
        var seen = [coordinator.revision: Self.observed(coordinator)]
        for index in 0..<8 {  // 8 steps: not yet over 2 x 4
            _ = try coordinator.perform(index % 2 == 0 ? .push(route: "orange", params: [:]) : .pop, at: testTime + Int64(index))
            seen[coordinator.revision] = Self.observed(coordinator)
        }
        #expect(!coordinator.holdsTrimmedHistory)
        _ = try coordinator.perform(.push(route: "orange", params: [:]), at: testTime + 8)  // the ninth trims
        seen[coordinator.revision] = Self.observed(coordinator)
        #expect(coordinator.holdsTrimmedHistory, "the trim released the steps it cut inside the change")
        Self.expectKept(coordinator, seen, maxHistory: 4)
        let first = coordinator.releaseTrimmedHistory(upTo: 2)
        #expect(first == 2 && coordinator.holdsTrimmedHistory)
        let rest = coordinator.releaseTrimmedHistory(upTo: 100)
        #expect(rest == 3 && !coordinator.holdsTrimmedHistory)
        Self.expectKept(coordinator, seen, maxHistory: 4)
    }

    @Test func everyKeptRevisionReadsBackAsItWasAnswered() throws {
        for maxHistory in [1, 3, 6, 100] {
            let (coordinator, seen) = Self.run(maxHistory: maxHistory)
            #expect(coordinator.revision > 12)
            Self.expectKept(coordinator, seen, maxHistory: maxHistory)
        }
    }

    @Test func aFreshTreeKeepsOnlyItsCurrentRevision() throws {
        let coordinator = Coordinator(graph: Self.graph())
        #expect(try coordinator.state(at: 1) == Self.observed(coordinator))
        #expect(throws: NavigationError.revisionNotKept("revision 2 is not kept: this navigator keeps only its current revision 1")) {
            try coordinator.state(at: 2)
        }
    }

    @Test func theKeptStatesSurviveASnapshotAndJournalReplay() throws {
        let (coordinator, seen) = Self.run()
        let decoded = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
        #expect(decoded == coordinator.state)
        Self.expectKept(Coordinator(graph: Self.graph(), restoring: decoded), seen, maxHistory: 6)
        // Replayed from the fresh state: the journal rebuilds every kept state.
        var replayed = Coordinator(graph: Self.graph())
        var scripted = Coordinator(graph: Self.graph())
        for (index, op) in Self.script.enumerated() {
            guard let change = try? scripted.perform(op, at: testTime + Int64(index)), let record = change.record else { continue }
            _ = try replayed.replay(record)
        }
        Self.expectKept(replayed, seen, maxHistory: 6)
    }

    /// A snapshot of `version` written out by hand as far as its undo and redo lists: red(#1) orange(#2) at
    /// revision 2 (tree 1), one undo tree (red alone, tree 0); the caller writes the rest.
    static func handWrittenSnapshot(version: UInt64) -> ByteWriter {
        var writer = ByteWriter()
        writer.raw(NavigationState.snapshotMagic); writer.varint(version); writer.varint(2); writer.varint(3)
        writer.count(2); writer.string("red"); writer.string("orange")  // routes
        writer.count(2); writer.string("#1"); writer.count(0); writer.params([:]); writer.string("#2"); writer.count(1); writer.params([:])
        writer.count(6)  // cells (element, list before): #1 | #1 #2 | stack 0 | stack 1 | tab 0 | tab 1
        for (element, list) in [(0, 0), (1, 1), (0, 0), (1, 0), (0, 0), (1, 0)] { writer.count(element); writer.count(list) }
        writer.count(2); writer.byte(0); writer.count(1); writer.byte(0); writer.count(2)  // stacks
        writer.count(2); writer.string(""); writer.string(""); writer.count(3); writer.string(""); writer.string(""); writer.count(4)  // tabs
        writer.count(0)  // flows
        writer.count(2); writer.bool(false); writer.varint(0); writer.count(5); writer.count(0)  // trees
        writer.bool(false); writer.varint(0); writer.count(6); writer.count(0)
        writer.count(1); writer.count(1); writer.count(0); writer.count(0)
        return writer
    }

    @Test func aVersion4SnapshotKeepsItsCurrentRevision() throws {
        // 0.1.0's format: one history line, no state kept with it, the facts last.
        var writer = Self.handWrittenSnapshot(version: 4)
        writer.count(1); writer.varint(2); writer.string("push"); writer.signed(testTime)
        writer.params([:])
        var coordinator = Coordinator(graph: Self.untabbed())
        _ = try coordinator.perform(.push(route: "orange", params: [:]), at: testTime)
        let restored = Coordinator(graph: Self.untabbed(), restoring: try NavigationState.decodeSnapshot(writer.bytes))
        #expect(restored.state.tree == coordinator.state.tree && restored.state.undo == coordinator.state.undo)
        #expect(restored.history(limit: 10) == coordinator.history(limit: 10))
        // Only what it has: the current revision, as the newest step's state.
        #expect(try restored.state(at: 2) == Self.observed(coordinator))
        #expect(throws: NavigationError.revisionNotKept("revision 1 is not kept: this navigator keeps only its current revision 2")) {
            try restored.state(at: 1)
        }
        // Written again, it is the current version and keeps what it has.
        let again = try NavigationState.decodeSnapshot(restored.state.encodedSnapshot())
        #expect(again == restored.state && Array(restored.state.encodedSnapshot().prefix(5)) == Array("NVDS".utf8) + [UInt8(NavigationState.snapshotVersion)])
    }

    static func untabbed() -> RouteGraph {
        try! RouteGraph.load(yaml: """
            root: red
            routes: { red: {}, orange: {}, yellow: {} }
            """, file: "untabbed.yaml")
    }

    /// 2,000 changes (pop/push pairs) at max-history 1,000 on a 128-screen stack: what the kept states add to the
    /// snapshot and the heap, against the same state without them (as before they were kept).
    @Test func whatTheKeptStatesCost() throws {
        for bodyBytes in [8, 1024] {
            let coordinator = try SnapshotSizeTests.build(pages: 127, bodyBytes: bodyBytes, pairs: 1000)
            let state = coordinator.state
            #expect(coordinator.depth == 128 && state.history.count >= 1000)
            var without = state
            without.history = BoundedStack(newestFirst: state.history.all.map { KeptChange(entry: $0.entry, after: nil) })
            without.base = nil
            let document = state.encodedSnapshot().count, before = without.encodedSnapshot().count
            let heap = SnapshotSizeTests.heapBytes(state), heapBefore = SnapshotSizeTests.heapBytes(without)
            print("2,000 changes, max-history 1,000, 128 screens with \(bodyBytes) B params: snapshot \(document) B (without the kept states \(before) B, +\((document - before) / 1000) B a kept change); heap ≈ \(heap) B (without \(heapBefore) B, +\((heap - heapBefore) / 1000) B a kept change)")
            // Disk: a few bytes a kept change, whatever the tree holds (the screens are those undo keeps anyway,
            // plus those the kept changes pushed), and up to 8 for what Export keeps of each (the id counter, the
            // undo and redo list references, the graph generation).
            #expect(document - before <= 1000 * (16 + bodyBytes + 16 + 8))
            #expect(try NavigationState.decodeSnapshot(state.encodedSnapshot()) == state)
        }
    }

    /// Random graphs × random calls × random crashes (a restart from the last snapshot and the rows after it, as
    /// navd starts after `kill -9`) and compactions: every kept revision reads back as observed right after it.
    @Test func randomCallsAndCrashesKeepEveryKeptRevision() async {
        await propertyCheck(count: RestorePropertyTests.cases(short: 150, long: 3_000), input: Gen.int(in: 0...999_999).array(of: 2...90)) { codes in
            let graph = ReloadPropertyTests.randomGraph(codes[0], shape: codes[0])
            var live = Coordinator(graph: graph)
            var seen = [live.revision: Self.observed(live)]
            var snapshot = live.state.encodedSnapshot()
            var rows: [JournalRow] = []
            for (step, code) in codes.dropFirst().enumerated() {
                if code % 11 == 0 {
                    // kill -9 and start again from what is on disk.
                    let input = RestoreInput(snapshot: snapshot, journal: rows, highestRevision: live.revision, highestNextId: live.state.nextIdNumber)
                    guard let restored = try? Coordinator.restore(input, savedGraph: graph, currentGraph: graph, at: testTime) else {
                        Issue.record("restore failed")
                        return
                    }
                    live = restored.coordinator
                    let kept = (try? live.state(at: 0)).map { [$0.revision: $0] } ?? [:]
                    #expect(kept[live.revision] == seen[live.revision], "the current revision after a restart")
                    continue
                }
                guard let change = try? live.perform(ReloadPropertyTests.operation(code), at: testTime + Int64(step)), let record = change.record else { continue }
                seen[live.revision] = Self.observed(live)
                rows.append(JournalRow(revision: record.entry.revision, payload: record.encoded()))
                if code % 13 == 0 {
                    snapshot = live.state.encodedSnapshot()
                    rows = []
                }
            }
            let listed = live.history(limit: graph.limits.maxHistory).map(\.revision)
            let oldest = listed.last.map { $0 - 1 } ?? live.revision
            for revision in oldest...live.revision {
                #expect((try? live.state(at: revision)) == seen[revision], "revision \(revision)")
            }
        }
    }
}
