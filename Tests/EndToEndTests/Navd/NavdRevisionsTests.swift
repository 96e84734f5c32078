import DBus
import Foundation
import NavdClient
import NavigatorProtocol
import SQLite
import Testing
import TestSupport

/// GetTreeAt and Revert against a real navd (docs/devtools.md): every kept revision reads back, after a
/// `kill -9` too, as the readers answered it right after it; every bad input gets its error and changes nothing.
@Suite("navd kept revisions", .serialized, .timeLimit(.minutes(3)))
struct NavdRevisionsTests {
    /// What GetTree, Facts and GetFlows answered right after the current revision.
    static func observed(_ client: NavigatorClient) throws -> StateAtRevision {
        let tree = try client.send(.getTree)
        return StateAtRevision(
            revision: tree.revision, selectedTab: tree.tab, nodes: tree.nodes, facts: try client.send(.facts),
            flows: try client.send(.getFlows))
    }

    /// Calls that change screens, layers, tabs, flows and facts, and undo and redo; `record` after each.
    static func drive(_ client: NavigatorClient, record: (StateAtRevision) throws -> Void) throws {
        let calls: [() throws -> Void] = [
            { _ = try client.send(.open("end")) }, { _ = try client.send(.selectTab("profile")) },
            { _ = try client.send(.present("modal", style: .sheet)) }, { _ = try client.send(.undo) },
            { _ = try client.send(.redo) }, { _ = try client.send(.dismiss) }, { _ = try client.send(.selectTab("news")) },
            { _ = try client.send(.setFacts(["signed-in": .bool(true)])) }, { _ = try client.send(.selectTab("profile")) },
            { _ = try client.send(.setFacts(["signed-in": .bool(false)])) }, { _ = try client.send(.start("auth")) },
            { _ = try client.send(.send("cancel")) }, { _ = try client.send(.start("auth")) },
        ]
        for call in calls {
            try call()
            try record(try observed(client))
        }
    }

    @Test func everyKeptRevisionReadsBackAfterKillNine() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        var seen: [UInt64: StateAtRevision] = [:]
        var client = try fixture.client()
        seen[1] = try Self.observed(client)
        try Self.drive(client) { seen[$0.revision] = $0 }
        let newest = try #require(seen.keys.max())
        #expect(newest >= 13)
        for (revision, state) in seen { #expect(try client.send(.getTreeAt(revision)) == state, "revision \(revision) before the kill") }

        fixture.navd.kill9()
        try fixture.navd.start()
        client = try fixture.client()
        for revision in 1...newest {
            #expect(try client.send(.getTreeAt(revision)) == seen[revision], "revision \(revision) after kill -9")
        }
        #expect(try client.send(.getTreeAt(0)) == seen[newest])
        // Past a snapshot (SIGTERM compacts) and another kill -9 after more changes: the same.
        #expect(fixture.navd.stop() == 0)
        try fixture.navd.start()
        client = try fixture.client()
        _ = try client.send(.push("orange"))
        seen[newest + 1] = try Self.observed(client)
        fixture.navd.kill9()
        try fixture.navd.start()
        client = try fixture.client()
        for revision in 1...(newest + 1) {
            #expect(try client.send(.getTreeAt(revision)) == seen[revision], "revision \(revision) after a snapshot and kill -9")
        }
    }

    @Test func badRevisionsAreRefusedAndChangeNothing() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        _ = try client.send(.push("orange"))
        _ = try client.send(.push("yellow"))
        let before = try Self.observed(client)
        func expectError(_ name: String, _ message: String?, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("no \(name)")
            } catch NavigatorError.remote(let got, let text) {
                #expect(got.hasSuffix(name), "\(got): \(text)")
                if let message { #expect(text == message) }
            } catch {
                Issue.record("\(error)")
            }
        }
        let kept = "this navigator keeps revisions 1 to 3"
        expectError("Error.RevisionNotKept", "revision 9 is not kept: \(kept)") { _ = try client.send(.getTreeAt(9)) }
        expectError("Error.RevisionNotKept", "revision 9 is not kept: \(kept)") { _ = try client.send(.revert(to: 9)) }
        expectError("Error.RevisionNotKept", "revision 9 is not kept: \(kept)") { _ = try client.send(.revert(to: 9, expectedRevision: 1)) }
        expectError("Error.StaleRevision", "expected revision 2, but the tree is at revision 3; read the state again and retry") {
            _ = try client.send(.revert(to: 1, expectedRevision: 2))
        }
        expectError("org.freedesktop.DBus.Error.InvalidArgs", nil) { _ = try client.send(.call(.getTreeAt, [.string("1")])) }
        expectError("org.freedesktop.DBus.Error.InvalidArgs", nil) { _ = try client.send(.call(.revert, [.uint64(1)])) }
        #expect(try Self.observed(client) == before)
        #expect(try client.send(.history(limit: 10)).count == 2)
    }

    @Test func revertIsOneUndoableChange() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        let start = try Self.observed(client)
        _ = try client.send(.push("orange"))
        _ = try client.send(.selectTab("profile"))
        _ = try client.send(.start("auth"))
        let withFlow = try Self.observed(client)
        _ = try client.send(.send("cancel"))
        let last = try Self.observed(client)
        // Back to the flow: it comes back with its id.
        #expect(try client.send(.revert(to: withFlow.revision, expectedRevision: last.revision)) == last.revision + 1)
        let reverted = try Self.observed(client)
        #expect(reverted.nodes == withFlow.nodes && reverted.flows == withFlow.flows && reverted.selectedTab == "profile")
        #expect(try client.send(.history(limit: 1)).first?.cause == "revert")
        // A revert to what is there already is a no-op.
        #expect(try client.send(.revert(to: withFlow.revision)) == reverted.revision)
        // Undo brings back the tree from before it.
        _ = try client.send(.undo)
        #expect(try Self.observed(client).nodes == last.nodes)
        // Back to the start: the flow leaves the tree, abandoned.
        _ = try client.send(.redo)
        #expect(try client.send(.revert(to: 1)) == reverted.revision + 3)
        let back = try Self.observed(client)
        #expect(back.nodes == start.nodes && back.flows.isEmpty && back.selectedTab == start.selectedTab)
        #expect(try client.send(.getState).path.map(\.route) == ["red"])
    }

    /// The signals a watcher receives after a change, up to the PropertiesChanged that closes it (or none within
    /// `timeout` seconds), as (member, body).
    static func signals(_ watcher: Connection, timeout: Double = 5) throws -> [(String, [DBusValue])] {
        var received: [(String, [DBusValue])] = []
        while received.last?.0 != "PropertiesChanged",
              let message = watcher.waitForMessage(timeout: timeout, matching: { $0.kind == .signal && $0.path == Navigator.objectPath.rawValue }) {
            received.append((message.member ?? "?", try message.body()))
        }
        return received
    }

    @Test func revertSendsOneStackChangedAndAbandonsTheFlowsThatLeave() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        let watcher = try Connection(.address(fixture.bus.address))
        try watcher.subscribeToNavigator()
        try watcher.addMatch(Navigator.flowFinishedRule)
        _ = try client.send(.selectTab("profile"))
        _ = try Self.signals(watcher)
        let started = try client.send(.start("auth"))
        _ = try Self.signals(watcher)
        // Back to revision 2, before the flow: one StackChanged of cause revert, the flow abandoned.
        let revision = try client.send(.revert(to: 2))
        let sent = try Self.signals(watcher)
        #expect(sent.map(\.0) == ["StackChanged", "FlowFinished", "PropertiesChanged"])
        #expect(sent.first?.1[0].uint64Value == revision && sent.first?.1[1].stringValue == "revert")
        #expect(try FlowEnd.flowFinished(dbusValues: sent[1].1).flow == FlowEnd(id: started.id, flow: "auth", output: ""))
        // Forward again to the flow's revision: it comes back with its id; nothing ends.
        _ = try client.send(.revert(to: started.revision))
        #expect(try Self.signals(watcher).map(\.0) == ["StackChanged", "PropertiesChanged"])
        #expect(try client.send(.getFlows).map(\.id) == [started.id])
        // A revert to what is there is a no-op: the current revision, nothing sent.
        let current = try client.send(.getState).revision
        #expect(try client.send(.revert(to: started.revision)) == current)
        #expect(try Self.signals(watcher, timeout: 0.5).isEmpty)
    }

    /// A figure, not a timed test: GetTreeAt of the oldest kept revision at max-history 1,000 on a 128-screen
    /// stack against GetTree, p50 of 200 calls each, through the blocking client.
    @Test func getTreeAtTheOldestKeptRevisionAgainstGetTree() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        for _ in 0..<127 { _ = try client.send(.push("orange")) }
        for _ in 0..<500 {
            _ = try client.send(.pop)
            _ = try client.send(.push("yellow"))
        }
        let history = try client.send(.history(limit: 1000))
        #expect(history.count == 1000)
        let oldest = try #require(history.last).revision - 1
        let tree = try client.send(.getTree)
        let kept = try client.send(.getTreeAt(oldest))
        #expect(kept.nodes.count == tree.nodes.count && kept.revision == oldest)
        func p50(_ call: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<200 {
                let start = DispatchTime.now().uptimeNanoseconds
                try call()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            }
            return times.sorted()[100]
        }
        let getTree = try p50 { _ = try client.send(.getTree) }
        let getTreeAt = try p50 { _ = try client.send(.getTreeAt(oldest)) }
        print("kept revisions: GetTree p50 \(Int(getTree)) µs, GetTreeAt(oldest kept, \(oldest)) p50 \(Int(getTreeAt)) µs (\(String(format: "%.2f", getTreeAt / getTree))×), 128-screen stack, 1,000 kept changes, debug build")
    }

    /// Random calls with random `kill -9` restarts of a real navd (seeded, the seed printed): after each restart,
    /// and at the end, every kept revision reads back as GetTree, Facts and GetFlows answered right after it.
    @Test func randomCallsWithRandomKillNineRestarts() throws {
        guard EndToEnd.navdAvailable else { return }
        let seed = UInt64.random(in: 1...UInt64.max)
        print("kept revisions: random kill -9 property, seed \(seed)")
        var random = SplitMix(seed: seed)
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        var client = try fixture.client()
        var seen = [UInt64(1): try Self.observed(client)]
        let calls: [(NavigatorClient) throws -> Void] = [
            { _ = try $0.send(.push("orange")) }, { _ = try $0.send(.pop) }, { _ = try $0.send(.back) },
            { _ = try $0.send(.present("modal", style: .sheet)) }, { _ = try $0.send(.selectTab("profile")) },
            { _ = try $0.send(.selectTab("rainbow")) }, { _ = try $0.send(.start("auth")) }, { _ = try $0.send(.send("cancel")) },
            { _ = try $0.send(.setFacts(["signed-in": .bool(true)])) }, { _ = try $0.send(.setFacts(["signed-in": .bool(false)])) },
            { _ = try $0.send(.undo) }, { _ = try $0.send(.redo) }, { _ = try $0.send(.open("/news/7")) },
            { _ = try $0.send(.revert(to: 1)) },
        ]
        func checkEveryKept() throws {
            let newest = try client.send(.getState).revision
            let oldest = (try client.send(.history(limit: 1000)).last?.revision).map { $0 - 1 } ?? newest
            for revision in oldest...newest {
                #expect(try client.send(.getTreeAt(revision)) == seen[revision], "revision \(revision), seed \(seed)")
            }
        }
        for _ in 0..<4 {
            for _ in 0..<Int(random.next() % 25 + 5) {
                do {
                    try calls[Int(random.next() % UInt64(calls.count))](client)
                } catch NavigatorError.remote {
                    continue  // refused: nothing changed
                }
                let state = try Self.observed(client)
                seen[state.revision] = state
            }
            fixture.navd.kill9()
            try fixture.navd.start()
            client = try fixture.client()
            try checkEveryKept()
        }
    }
}

extension NavdRevisionsTests {
    /// Thousands of changes, so that navd writes several snapshots, each adding a segment of the kept steps made
    /// since the one before (docs/durability.md#incremental-snapshots); `kill -9` after each round: every kept
    /// revision reads back after each restart, from a file that held segments.
    @Test func keptRevisionsReadBackAcrossIncrementalSnapshots() throws {
        guard EndToEnd.navdAvailable else { return }
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory(extraArguments: ["--max-history", "300"])
        var client = try fixture.client()
        var seen = [UInt64(1): try Self.observed(client)]
        let calls: [(NavigatorClient) throws -> Void] = [
            { _ = try $0.send(.push("orange")) }, { _ = try $0.send(.selectTab("profile")) }, { _ = try $0.send(.push("orange")) },
            { _ = try $0.send(.selectTab("rainbow")) }, { _ = try $0.send(.pop) },
        ]
        var segmentCounts: [Int] = []
        for round in 0..<3 {
            for index in 0..<1_500 {
                do {
                    try calls[(index + round) % calls.count](client)
                } catch NavigatorError.remote {
                    continue  // refused: nothing changed
                }
                let state = try Self.observed(client)
                seen[state.revision] = state
            }
            fixture.navd.kill9()
            let file = try #require(fixture.navd.stateDirectory) + "/navd.sqlite3"
            do {
                let db = try Database(path: file, flags: [.readOnly])
                defer { db.close() }
                segmentCounts.append(try db.firstRow("SELECT count(*) FROM history_segment") { Int($0.int64(at: 0)) } ?? 0)
            }
            try fixture.navd.start()
            client = try fixture.client()
            let newest = try client.send(.getState).revision
            let kept = try client.send(.history(limit: 1_000))
            #expect(kept.count == 300, "round \(round)")
            let oldest = (kept.last?.revision ?? newest) - 1
            for revision in oldest...newest {
                #expect(try client.send(.getTreeAt(revision)) == seen[revision], "revision \(revision) after kill -9, round \(round)")
            }
        }
        print("kept revisions: segments in the file at each kill: \(segmentCounts)")
        #expect(segmentCounts.allSatisfy { $0 >= 2 }, "each kill found steps written as segments: \(segmentCounts)")
    }
}

/// A small seeded generator (SplitMix64), so a failing run can be repeated from its printed seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
