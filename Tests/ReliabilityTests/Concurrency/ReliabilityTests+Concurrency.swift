import DBus
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

/// What the Apply clients saw.
struct ApplyOutcome: Sendable {
    var seed: UInt64 = 0
    var startRevision: UInt64 = 0
    var finalRevision: UInt64 = 0
    var attempts = 0
    /// Revisions returned by successful Applies.
    var successes: [UInt64] = []
    /// The expectations that failed with StaleRevision although they were read fresh.
    var staleFailures: [UInt64] = []
    var deliberateStale = 0
    var failures: [String] = []
    var turnsFresh = 0
    var watcherFailures: [String] = []

    /// Adds what one client saw in the racing phase: its attempts, successes, stale failures,
    /// deliberately stale expectations and failures.
    mutating func addClient(_ client: ApplyOutcome) {
        attempts += client.attempts
        successes += client.successes
        staleFailures += client.staleFailures
        deliberateStale += client.deliberateStale
        failures += client.failures
    }
}

extension ReliabilityTests {
    /// 8 clients Apply with expected revisions on one tree: a stale expectation always fails
    /// with StaleRevision, a fresh one always succeeds, no update is lost, the history is one
    /// sequence; navwatch ends on the final revision, never out of order.
    @Test(.timeLimit(.minutes(10)))
    func concurrentAppliesKeepOneHistory() async throws {
        try await Self.withNavd("concurrency") { run in
            let perClient = ReliabilityMode.pick(short: 120, long: 2_000)
            let outcome = try await onThread("concurrency") {
                try Self.runApplyClients(bus: run.bus, clients: 8, perClient: perClient, seed: run.seed)
            }
            let successes = outcome.successes.sorted()
            let expected = outcome.finalRevision > outcome.startRevision
                ? Array((outcome.startRevision + 1)...outcome.finalRevision) : []

            var figures = Figures("concurrency")
            figures.add("seed", outcome.seed)
            figures.add("clients", 8)
            figures.add("applies", outcome.attempts)
            figures.add("succeeded", outcome.successes.count)
            figures.add("stale-rejected", outcome.staleFailures.count)
            figures.add("deliberately-stale-rejected", outcome.deliberateStale)
            figures.add("fresh-turns-succeeded", outcome.turnsFresh)
            figures.add("revisions", "\(outcome.startRevision)→\(outcome.finalRevision)")
            figures.add("lost-updates", expected.count - Set(successes).intersection(expected).count)
            figures.add("failures", outcome.failures.count + outcome.watcherFailures.count)
            figures.print()

            #expect(outcome.failures.isEmpty, "seed \(run.seed):\n\(outcome.failures.prefix(20).joined(separator: "\n"))")
            #expect(outcome.watcherFailures.isEmpty, "seed \(run.seed):\n\(outcome.watcherFailures.prefix(20).joined(separator: "\n"))")
            // No lost update: each success has its own revision and together they are every
            // revision from the start to the end, so the history is one sequence.
            #expect(successes == expected, "successful Applies returned \(successes.count) revisions for \(expected.count) changes")
            #expect(outcome.successes.count > 8, "almost every Apply failed: no concurrency was tested")
            #expect(outcome.turnsFresh == 8 * 10)
            #expect(run.navd.isRunning)
        }
    }

    static func runApplyClients(bus: PrivateBus, clients: Int, perClient: Int, seed: UInt64) throws -> ApplyOutcome {
        var outcome = ApplyOutcome()
        outcome.seed = seed
        var rng = SeededGenerator(seed: seed)
        let watchers = NavWatcher.isBuilt ? try (0..<2).map { _ in try NavWatcher(address: bus.address) } : []
        defer { watchers.forEach { $0.stop() } }
        let observer = try Connection(.address(bus.address))
        defer { observer.close() }
        outcome.startRevision = try observer.revision()
        for watcher in watchers { _ = watcher.waitForLine(after: 0, timeout: 5) { $0.revision != nil } }

        let shared = LockedBox(ApplyOutcome())
        let group = DispatchGroup()
        // Racing phase: read, then Apply with what was read.
        for _ in 0..<clients {
            let clientSeed = rng.next()
            group.enter()
            Thread {
                defer { group.leave() }
                var clientRng = SeededGenerator(seed: clientSeed)
                var local = ApplyOutcome()
                do {
                    let connection = try Connection(.address(bus.address))
                    defer { connection.close() }
                    for _ in 0..<perClient {
                        let deliberate = clientRng.chance(0.1)
                        try Self.applyOnce(connection, deliberatelyStale: deliberate, rng: &clientRng, into: &local)
                    }
                } catch {
                    local.failures.append("client: \(error)")
                }
                shared.withLock { $0.addClient(local) }
            }.start()
        }
        guard group.wait(timeout: .now() + 500) == .success else { throw HarnessError("the Apply clients did not finish") }
        shared.withLock { outcome.addClient($0) }

        // Taking turns: an expectation read fresh, with no one else changing, always succeeds.
        let connections = try (0..<clients).map { _ in try Connection(.address(bus.address)) }
        defer { connections.forEach { $0.close() } }
        for _ in 0..<10 {
            for connection in connections {
                var turn = ApplyOutcome()
                try Self.applyOnce(connection, deliberatelyStale: false, rng: &rng, into: &turn)
                outcome.attempts += turn.attempts
                outcome.successes += turn.successes
                outcome.turnsFresh += turn.successes.count
                outcome.failures += turn.staleFailures.map { "a fresh expectation \($0), with no one else changing, failed with StaleRevision" }
                outcome.failures += turn.failures
            }
        }

        let final = try observer.treeSnapshot()
        outcome.finalRevision = final.revision
        // A stale rejection is only right if someone else moved the revision past it.
        for expectation in outcome.staleFailures where expectation >= outcome.finalRevision {
            outcome.failures.append("Apply expecting \(expectation) failed as stale, but the revision never moved past it")
        }
        // The history: one sequence, newest first, every step an apply.
        let newest = final.historyRevisions.prefix(Int(min(UInt64(final.historyRevisions.count), final.revision - outcome.startRevision)))
        let causes = final.historyCauses.prefix(newest.count)
        if Array(newest) != Array(stride(from: final.revision, to: final.revision - UInt64(newest.count), by: -1)) {
            outcome.failures.append("the history is not one sequence: \(newest.prefix(20))…")
        }
        if causes.contains(where: { $0 != "apply" }) { outcome.failures.append("the history holds causes other than apply: \(Set(causes))") }

        for watcher in watchers { outcome.watcherFailures += watcher.problemsAtTheEnd(final: final.revision) }
        return outcome
    }

    /// Reads the state, then Applies one change expecting what was read (or, deliberately, a
    /// revision already gone). The change is always a real one for the state read.
    static func applyOnce(_ connection: Connection, deliberatelyStale: Bool, rng: inout SeededGenerator, into outcome: inout ApplyOutcome) throws {
        let state = try connection.navigator("GetState")
        guard state.count == 3, let revision = state[0].uint64Value, let depth = state[2].arrayValues?.count else {
            throw HarnessError("GetState answered \(state)")
        }
        let op = depth < 30
            ? Contract.op("push", [("route", .string(rng.pick(["orange", "yellow", "green", "teal"])))])
            : Contract.op("poptoroot")
        // Revision 0 would skip the check, so the stale one at revision 1 is one from the future.
        let expectation = deliberatelyStale ? (revision > 1 ? revision - 1 : UInt64.max) : revision
        outcome.attempts += 1
        do {
            let reply = try connection.navigator("Apply", [Contract.ops([op]), .uint64(expectation)])
            guard let newRevision = reply.first?.uint64Value else { throw HarnessError("Apply answered \(reply)") }
            if deliberatelyStale {
                outcome.failures.append("Apply expecting the stale revision \(expectation) succeeded with \(newRevision)")
            } else if newRevision != revision + 1 {
                outcome.failures.append("Apply expecting \(revision) answered revision \(newRevision), not \(revision + 1)")
            }
            outcome.successes.append(newRevision)
        } catch let error as DBusError {
            if error.name != Contract.errorPrefix + "StaleRevision" {
                outcome.failures.append("Apply expecting \(expectation) failed with \(error.name): \(error.message)")
            } else if deliberatelyStale {
                outcome.deliberateStale += 1
            } else {
                outcome.staleFailures.append(expectation)
            }
        }
    }
}
