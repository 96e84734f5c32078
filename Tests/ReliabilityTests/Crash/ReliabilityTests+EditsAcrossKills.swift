import DBus
import Foundation
import Navigation
import NavigatorProtocol
import RandomRouteGraphs
import RouteFiles
import Testing
import TestSupport

/// The figures of an edits-across-kills run.
struct EditsOutcome: Sendable {
    /// Rounds completed; navd stopped with `kill -9`, and with SIGTERM; reloads while navd ran.
    var rounds = 0, kills = 0, terminations = 0, liveReloads = 0
    /// How often each edit of the route file was made while navd was down (`removed`, `put-back`, …).
    var edits: [String: Int] = [:]
    /// Changes answered before a stop, and of those the ones still in the kept history (so checked).
    var answeredChanges = 0, changesChecked = 0
    /// Calls in flight at a stop that navd had committed; restarts whose reload of the file changed the
    /// state; restarts after which navd's state was the model's, compared whole.
    var inFlightCommitted = 0, repairsAtStart = 0, treesCompared = 0
    /// Each restart's time until navd answered, in seconds.
    var restartSeconds: [Double] = []
    /// What went wrong, with the round and navd's log.
    var failures: [String] = []
}

extension ReliabilityTests {
    /// Random route files × random calls × `kill -9` (or SIGTERM) at random moments × random
    /// edits of the file while navd is down (rewritten, removed, put back, left alone), with live
    /// reloads between. A model coordinator runs every answered call too; after every restart
    /// navd must hold exactly the model's "replay, then reload the file as it is now": the same
    /// tree, ids, history (so every answered change), facts, flows and undo/redo, and revisions
    /// that only go forward (`docs/durability.md#edits-while-navd-is-down`).
    @Test(.timeLimit(.minutes(20)))
    func editsBetweenKillsKeepEveryAnsweredChange() async throws {
        let seed = ReliabilityMode.seed()
        var rng = SeededGenerator(seed: seed)
        let first = RandomRouteGraphs.randomYAML(routesCode: Int.random(in: 0...999_999, using: &rng), shapeCode: Int.random(in: 0...999_999, using: &rng))
        let rounds = ReliabilityMode.pick(short: 12, long: 2_000)
        let callsRandom = rng
        try await Self.withNavd("edits", routes: first) { run in
            let file = try #require(run.routeFile)
            let outcome = try await onThread("edits") {
                try Self.runEditRounds(run, file: file, firstText: first, rounds: rounds, rng: callsRandom)
            }
            var figures = Figures("edits-across-kills")
            figures.add("seed", seed)
            figures.add("rounds", outcome.rounds)
            figures.add("kills", outcome.kills)
            figures.add("sigterms", outcome.terminations)
            figures.add("edits", tally: outcome.edits)
            figures.add("live-reloads", outcome.liveReloads)
            figures.add("answered-changes", outcome.answeredChanges)
            figures.add("answered-changes-checked", outcome.changesChecked)
            figures.add("in-flight-committed", outcome.inFlightCommitted)
            figures.add("repairs-at-start", outcome.repairsAtStart)
            figures.add("states-compared-whole", outcome.treesCompared)
            let restarts = outcome.restartSeconds.sorted()
            if !restarts.isEmpty {
                figures.add("restart-p50-ms", String(format: "%.0f", restarts[restarts.count / 2] * 1000))
                figures.add("restart-max-ms", String(format: "%.0f", restarts.last! * 1000))
            }
            figures.add("failures", outcome.failures.count)
            figures.print()
            #expect(outcome.failures.isEmpty, "seed \(seed):\n\(outcome.failures.prefix(10).joined(separator: "\n"))")
            #expect(outcome.rounds == rounds, "seed \(seed): stopped after round \(outcome.rounds)")
            #expect(outcome.treesCompared == outcome.rounds)
            #expect(outcome.answeredChanges > rounds, "the calls made almost no changes")
        }
    }

    /// The rounds: a live reload sometimes, calls, a kill, an edit, a start, the comparison. Stops
    /// at the first difference (the model cannot follow navd past it).
    static func runEditRounds(
        _ run: ReliabilityRun, file: String, firstText: String, rounds: Int, rng seeded: SeededGenerator
    ) throws -> EditsOutcome {
        var rng = seeded
        var outcome = EditsOutcome()
        var model = Coordinator(graph: try RouteGraph.load(yaml: firstText, file: file))
        var fileText: String? = firstText
        var lastText = firstText
        var time: Int64 = 0
        let client = try Connection(.address(run.bus.address))
        defer { client.close() }
        func randomText() -> String {
            RandomRouteGraphs.randomYAML(
                routesCode: Int.random(in: 0...999_999, using: &rng), shapeCode: Int.random(in: 0...999_999, using: &rng))
        }
        func fail(_ text: String) -> EditsOutcome {
            outcome.failures.append("round \(outcome.rounds): \(text)\nnavd's log:\n\(run.navd.stderr.suffix(3_000))")
            return outcome
        }

        for _ in 0..<rounds {
            if fileText != nil && rng.chance(0.25) {
                // A live reload: navd writes a snapshot under the new graph before it answers.
                let text = randomText()
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                (fileText, lastText) = (text, text)
                time += 1
                let expected = model.reload(try RouteGraph.load(yaml: text, file: file), at: time).change?.revision ?? model.revision
                let answered = try client.navigator(NavigatorMethod.reload.name, timeoutMilliseconds: 30_000)[0].uint64Value
                outcome.liveReloads += 1
                if answered != expected { return fail("Reload answered revision \(answered ?? 0), the model \(expected)") }
            }

            // Calls, and a kill once a random number of them is answered (or all of them).
            let count = rng.chance(0.2) ? Int.random(in: 130...320, using: &rng) : Int.random(in: 0...60, using: &rng)
            let operations = (0..<count).map { _ in RandomRouteGraphs.operation(Int.random(in: 0...999_999, using: &rng)) }
            let caller = ScriptedCaller(address: run.bus.address, operations: operations, signalAfter: Int.random(in: 0...count, using: &rng))
            caller.start()
            _ = caller.reached.wait(timeout: .now() + 120)
            usleep(UInt32.random(in: 0...1_500, using: &rng))
            if rng.chance(0.15) {
                run.navd.stop()
                outcome.terminations += 1
            } else {
                run.navd.kill9()
                outcome.kills += 1
            }
            guard caller.join(timeout: 30) else { return fail("the caller hung after navd stopped") }

            // The model runs every answered call; the one in flight waits for the history.
            var inFlight: Navigation.Operation?
            var answeredRevisions: [UInt64] = []
            for (operation, answer) in caller.results {
                if case .none = answer {
                    inFlight = operation
                    break
                }
                time += 1
                let result = Result { () throws(NavigationError) in try model.perform(operation, at: time) }
                switch (answer, result) {
                case (.revision(let revision), .success(let change)) where change.revision == revision:
                    if !change.isNoOp { answeredRevisions.append(revision) }
                case (.refused(let name), .failure(let error)) where error.name == name:
                    break
                default:
                    return fail("\(operation) was answered \(answer) by navd but \(result) by the model")
                }
            }

            // The edit while navd is down.
            let edit: String
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<40:
                let text = randomText()
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                (fileText, lastText, edit) = (text, text, "rewritten")
            case 40..<55 where fileText != nil:
                unlink(file)
                (fileText, edit) = (nil, "removed")
            case 55..<75 where fileText == nil:
                try lastText.write(toFile: file, atomically: true, encoding: .utf8)
                (fileText, edit) = (lastText, "put-back")
            default:
                edit = fileText == nil ? "still-gone" : "unchanged"
            }
            outcome.edits[edit, default: 0] += 1

            outcome.restartSeconds.append(try run.navd.start())
            let history = try [HistoryEntry](dbusValue: try client.navigator("History", [.uint32(100_000)])[0])
            if let inFlight {
                // Committed but not answered: in the history right after the last answered change.
                var trial = model
                time += 1
                if let change = try? trial.perform(inFlight, at: time), !change.isNoOp,
                   history.contains(where: { $0.revision == change.revision && $0.cause == change.cause }) {
                    model = trial
                    outcome.inFlightCommitted += 1
                }
            }
            // Replay, then reload the file as it is now (a gone file: the graph navd last read).
            time += 1
            let current = try fileText.map { try RouteGraph.load(yaml: $0, file: file) } ?? model.graph
            if model.reload(current, at: time).change != nil { outcome.repairsAtStart += 1 }

            let expectedHistory = model.history(limit: 100_000).map { "\($0.revision) \($0.cause)" }
            let actualHistory = history.map { "\($0.revision) \($0.cause)" }
            let kept = Set(history.map(\.revision))
            for revision in answeredRevisions {
                outcome.answeredChanges += 1
                if kept.contains(revision) { outcome.changesChecked += 1 }
            }
            if actualHistory != expectedHistory {
                return fail("after the restart (\(edit)) the history is \(actualHistory.prefix(6))… (\(actualHistory.count)), the model's \(expectedHistory.prefix(6))… (\(expectedHistory.count))")
            }
            let tree = try client.navigator("GetTree")
            let expectedTree: [DBusValue] = [.uint64(model.revision), .string(model.selectedTab), model.nodes.dbusValue]
            if tree != expectedTree {
                return fail("after the restart (\(edit)) navd's tree differs from the model's: \(tree) vs \(expectedTree)")
            }
            let flows = try client.navigator(NavigatorMethod.getFlows.name)
            if flows != [model.flows.dbusValue] { return fail("flows \(flows) vs \(model.flows)") }
            let properties = try client.navdProperties().mapValues { $0.variantValue ?? $0 }
            let facts = try properties["Facts"].map { try [String: ParamValue](dbusValue: $0) }
            if facts != model.facts { return fail("facts \(facts ?? [:]) vs \(model.facts)") }
            let undoRedo = [properties["CanUndo"]?.boolValue, properties["CanRedo"]?.boolValue]
            if undoRedo != [model.canUndo, model.canRedo] {
                return fail("CanUndo, CanRedo \(undoRedo) vs the model's \(model.canUndo), \(model.canRedo)")
            }
            outcome.treesCompared += 1
            outcome.rounds += 1
        }
        return outcome
    }
}
