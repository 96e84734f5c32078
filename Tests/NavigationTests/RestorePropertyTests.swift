import Foundation
import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// Random route graph × random calls (with live reloads) × random crash point and compactions × random edit of
/// the route file while navd is down: start-up must give exactly the live state at the crash, reloaded with the
/// edited graph. Sometimes a row is damaged: then the live state before that row, moved past every revision
/// and id, reloaded. `NAVD_PROPERTY=long` (`make check-long`) runs many more cases.
@Suite(.timeLimit(.minutes(20)))
struct RestorePropertyTests {
    /// Cases per property: a few seconds' worth in `make test`, many more with `NAVD_PROPERTY=long`.
    static func cases(short: Int, long: Int) -> Int {
        ProcessInfo.processInfo.environment["NAVD_PROPERTY"]?.lowercased() == "long" ? long : short
    }

    /// What the state file holds at the crash: the last snapshot and the graph it was written under, the rows
    /// after it, and the live coordinator before each row.
    struct Stored {
        var snapshot: [UInt8]
        var savedGraph: RouteGraph
        var rows: [JournalRow] = []
        var before: [Coordinator] = []

        init(_ coordinator: Coordinator) {
            snapshot = coordinator.state.encodedSnapshot()
            savedGraph = coordinator.graph
        }
    }

    /// Runs `codes` as calls on a random graph, as navd does: a reload writes a snapshot under the new graph
    /// before it answers; some changes are followed by a compaction (a snapshot).
    static func run(_ codes: [Int]) -> (stored: Stored, live: Coordinator) {
        var live = Coordinator(graph: ReloadPropertyTests.randomGraph(codes[0], shape: codes[0]))
        var stored = Stored(live)
        var time = testTime
        for (step, code) in codes.dropFirst().enumerated() {
            time += 1
            if step % 23 == 11 {
                let graph = ReloadPropertyTests.randomGraph(code, shape: code % 4 == 0 ? code : codes[0])
                if graph != live.graph {
                    _ = live.reload(graph, at: time)
                    stored = Stored(live)
                }
                continue
            }
            let before = live
            guard let change = try? live.perform(ReloadPropertyTests.operation(code), at: time), let record = change.record else { continue }
            stored.rows.append(JournalRow(revision: record.entry.revision, payload: record.encoded()))
            stored.before.append(before)
            if code % 17 == 0 { stored = Stored(live) }
        }
        return (stored, live)
    }

    @Test func restartAfterAnEditEqualsTheLiveStateReloaded() async {
        let count = Self.cases(short: 200, long: 5_000)
        await propertyCheck(count: count, input: Gen.int(in: 0...999_999).array(of: 2...70)) { codes in
            let (stored, live) = Self.run(codes)
            let last = codes[codes.count - 1]
            let current = ReloadPropertyTests.randomGraph(last / 7, shape: last % 3 == 0 ? last : codes[0])
            var input = RestoreInput(snapshot: stored.snapshot, journal: stored.rows, highestRevision: live.revision, highestNextId: live.state.nextIdNumber)
            var expected = live
            var stop: UInt64?
            if last % 6 == 0 && !stored.rows.isEmpty {
                // A damaged row: garbage, or a record stored under another revision.
                let index = (last / 6) % stored.rows.count
                input.journal[index].payload = last % 12 == 0 ? [0x4E, 0x56, 0x44, 0x4A, 0xFF] : JournalRecord(
                    entry: HistoryEntry(revision: stored.rows[index].revision + 1, cause: "pop", time: 0), operation: .pop).encoded()
                expected = stored.before[index]
                expected.skipForward(pastRevision: live.revision, nextId: live.state.nextIdNumber)
                stop = stored.rows[index].revision
            }
            let reload = expected.reload(current, at: testTime)
            let restored: Restored
            do {
                restored = try Coordinator.restore(input, savedGraph: stored.savedGraph, currentGraph: current, at: testTime)
            } catch {
                Issue.record("restore threw \(error)")
                return
            }
            #expect(restored.stopped?.revision == stop)
            #expect(restored.coordinator.state == expected.state, "restored \(restored.coordinator.nodes) expected \(expected.nodes)")
            #expect(restored.coordinator.graph == current)
            #expect(restored.reconciliation.warnings == reload.warnings)
            #expect(restored.reconciliation.change?.revision == reload.change?.revision)
            #expect(restored.coordinator.revision >= live.revision && restored.coordinator.state.nextIdNumber >= live.state.nextIdNumber)
            if stop == nil {
                // Without an edit the replay alone is the live state.
                let unedited = try? Coordinator.restore(input, savedGraph: stored.savedGraph, currentGraph: stored.savedGraph, at: testTime)
                #expect(unedited?.coordinator.state == live.state)
            }
            // The next change is accepted, by both alike.
            var next = restored.coordinator
            for code in codes.prefix(6) {
                let op = ReloadPropertyTests.operation(code)
                let a = try? next.perform(op, at: testTime + 1)
                let b = try? expected.perform(op, at: testTime + 1)
                #expect(a?.revision == b?.revision && next.state == expected.state)
                if let a, !a.isNoOp { #expect(a.revision > live.revision) }
            }
        }
    }

    /// The property proves little unless its cases reach the situations it is about.
    @Test func theGeneratorReachesEverySituation() throws {
        var reached: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let codes = (0..<Int.random(in: 2...70, using: &generator)).map { _ in Int.random(in: 0...999_999, using: &generator) }
            let (stored, live) = Self.run(codes)
            let last = codes[codes.count - 1]
            let current = ReloadPropertyTests.randomGraph(last / 7, shape: last % 3 == 0 ? last : codes[0])
            let input = RestoreInput(snapshot: stored.snapshot, journal: stored.rows, highestRevision: live.revision, highestNextId: live.state.nextIdNumber)
            let restored = try Coordinator.restore(input, savedGraph: stored.savedGraph, currentGraph: current, at: testTime)
            if restored.replayed > 5 { reached["several rows replayed", default: 0] += 1 }
            if restored.reconciliation.change != nil { reached["a repair", default: 0] += 1 }
            if stored.savedGraph != Coordinator(graph: ReloadPropertyTests.randomGraph(codes[0], shape: codes[0])).graph { reached["a live reload", default: 0] += 1 }
            if live.canUndo && restored.reconciliation.change == nil { reached["undo steps kept", default: 0] += 1 }
            let underCurrent = try Coordinator.restore(input, savedGraph: current, currentGraph: current, at: testTime)
            if underCurrent.stopped != nil { reached["a row the edited graph refuses", default: 0] += 1 }
        }
        print("restore property situations: \(reached.sorted { $0.key < $1.key })")
        for situation in ["several rows replayed", "a repair", "a live reload", "undo steps kept", "a row the edited graph refuses"] {
            #expect(reached[situation, default: 0] >= 10, "\(situation): \(reached[situation, default: 0]) of 300")
        }
    }
}
