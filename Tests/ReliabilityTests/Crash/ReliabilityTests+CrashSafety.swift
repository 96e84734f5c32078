import DBus
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

/// The figures of a crash-safety run.
struct CrashOutcome: Sendable {
    var seed: UInt64 = 0
    var kills = 0
    var quietKills = 0
    var terminations = 0
    var startupKills = 0
    var answeredChanges = 0
    var answeredCalls = 0
    var changesChecked = 0
    var lost = 0
    var pathsVerified = 0
    var treesVerified = 0
    var errors: [String: Int] = [:]
    var failures: [String] = []
    var resyncMilliseconds: [Double] = []
    var watcherFailures: [String] = []
    var finalRevision: UInt64 = 0
}

extension ReliabilityTests {
    /// Clients push, pop, present and apply while navd is killed with SIGKILL at random
    /// moments; after each restart every answered revision is there, the tree is the one the
    /// answered calls made, no id is reused, and every navwatch resyncs within a second.
    @Test(.timeLimit(.minutes(15)))
    func crashesLoseNothingAnswered() async throws {
        try await Self.checkCrashRounds("crash", rounds: ReliabilityMode.pick(short: 10, long: 120), watchers: 2)
    }

    /// The same with `--durability full` (an fsync per group commit): fewer rounds, as each
    /// commit costs more, and no watchers.
    @Test(.timeLimit(.minutes(10)))
    func crashesLoseNothingAnsweredWithFullDurability() async throws {
        try await Self.checkCrashRounds(
            "crash-durability-full", extraArguments: ["--durability", "full"],
            rounds: ReliabilityMode.pick(short: 4, long: 30), watchers: 0)
    }

    /// Runs `runCrashRounds` against a fresh navd started with `extraArguments`, prints its
    /// figures as `test` and expects nothing answered lost, no failure, and (with watchers)
    /// every watcher resynced within a second.
    static func checkCrashRounds(
        _ test: String, extraArguments: [String] = [], rounds: Int, watchers: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withNavd(test, extraArguments: extraArguments) { run in
            let outcome = try await onThread(test) {
                try runCrashRounds(bus: run.bus, navd: run.navd, rounds: rounds, seed: run.seed, watchers: watchers)
            }
            let seed = run.seed

            var figures = Figures(test)
            figures.add("seed", outcome.seed)
            figures.add("kills", outcome.kills)
            figures.add("quiet-kills", outcome.quietKills)
            figures.add("sigterms-under-load", outcome.terminations)
            figures.add("kills-during-startup", outcome.startupKills)
            figures.add("answered-changes", outcome.answeredChanges)
            figures.add("answered-changes-checked", outcome.changesChecked)
            figures.add("lost", outcome.lost)
            figures.add("trees-compared-whole", outcome.treesVerified)
            figures.add("paths-compared-to-signal", outcome.pathsVerified)
            figures.add("errors", tally: outcome.errors)
            figures.add("final-revision", outcome.finalRevision)
            if watchers == 0 {
                figures.add("watcher-resync", "not measured (no watchers)")
            } else if outcome.resyncMilliseconds.isEmpty {
                figures.add("watcher-resync", "not measured (navwatch not built)")
            } else {
                let sorted = outcome.resyncMilliseconds.sorted()
                figures.add("watcher-resyncs", sorted.count)
                figures.add("watcher-resync-p50-ms", String(format: "%.0f", sorted[sorted.count / 2]))
                figures.add("watcher-resync-max-ms", String(format: "%.0f", sorted.last!))
            }
            figures.add("failures", outcome.failures.count + outcome.watcherFailures.count)
            figures.print()

            #expect(outcome.kills + outcome.terminations == rounds, sourceLocation: sourceLocation)
            #expect(outcome.lost == 0, "seed \(seed)", sourceLocation: sourceLocation)
            #expect(
                outcome.failures.isEmpty, "seed \(seed):\n\(outcome.failures.prefix(20).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
            #expect(
                outcome.watcherFailures.isEmpty, "seed \(seed):\n\(outcome.watcherFailures.prefix(20).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
            #expect(
                outcome.answeredChanges > rounds, "the clients made almost no changes: \(outcome.errors)",
                sourceLocation: sourceLocation)
            #expect(outcome.treesVerified > 0, sourceLocation: sourceLocation)
            #expect(
                outcome.resyncMilliseconds.allSatisfy { $0 <= 1000 },
                "a watcher took over a second to resync: \(outcome.resyncMilliseconds.max() ?? 0) ms",
                sourceLocation: sourceLocation)
        }
    }

    static func runCrashRounds(bus: PrivateBus, navd: NavdProcess, rounds: Int, seed: UInt64, watchers watcherCount: Int = 2) throws -> CrashOutcome {
        var outcome = CrashOutcome()
        outcome.seed = seed
        var rng = SeededGenerator(seed: seed)
        let ledger = CrashLedger()
        let recorder = try SignalRecorder(address: bus.address)
        defer { recorder.stop() }
        let watchers = NavWatcher.isBuilt ? try (0..<watcherCount).map { _ in try NavWatcher(address: bus.address) } : []
        if !NavWatcher.isBuilt { print("reliability: crash: navwatch is not built, watchers not measured") }
        defer { watchers.forEach { $0.stop() } }
        let observer = try Connection(.address(bus.address))
        defer { observer.close() }
        ledger.recordSeen(ids: try observer.treeSnapshot().ids)
        // Let the watchers show the first state before anything changes.
        for watcher in watchers { _ = watcher.waitForLine(after: 0, timeout: 5) { $0.revision != nil } }

        for round in 0..<rounds {
            let clients = (0..<4).map { _ in ChangingClient(address: bus.address, ledger: ledger, rng: rng.split()) }
                + [ChangingClient(address: bus.address, ledger: ledger, rng: rng.split(), pipelined: true)]
            clients.forEach { $0.start() }
            usleep(UInt32.random(in: 30_000...300_000, using: &rng))
            let quiet = round % 3 == 2 || rng.chance(0.2)
            var quietSnapshot: TreeSnapshot?
            var quietProperties: [String: DBusValue] = [:]
            if quiet {
                clients.forEach { $0.requestStop() }
                for client in clients where !client.join(timeout: 15) { ledger.recordViolation("round \(round): a client did not stop") }
                quietSnapshot = try observer.treeSnapshot()
                quietProperties = try observer.navdProperties()
                outcome.quietKills += 1
            }
            let watcherLineCounts = watchers.map { $0.lines().count }
            if !quiet && rng.chance(0.25) {
                // Some rounds end with SIGTERM in the middle of the traffic: navd finishes the
                // calls in hand, commits and exits 0; the same checks follow.
                let status = navd.stop()
                outcome.terminations += 1
                if status != 0 { ledger.recordViolation("round \(round): SIGTERM under load ended navd with status \(status.map(String.init) ?? "none (killed)")") }
            } else {
                navd.kill9()
                outcome.kills += 1
            }
            for client in clients where !client.join(timeout: 15) { ledger.recordViolation("round \(round): a client hung after the kill") }
            let answered = ledger.takeRoundChanges()
            let highest = ledger.highest
            for (watcher, count) in zip(watchers, watcherLineCounts)
            where watcher.waitForLine(after: count, timeout: 5, { $0.isGone }) == nil {
                outcome.watcherFailures.append("round \(round): navwatch \(watcher.pid) printed no {\"event\":\"gone\"} after the kill")
            }

            if rng.chance(0.3) {
                // Killed again in the middle of its start-up (restore, compaction).
                try navd.launch()
                usleep(UInt32.random(in: 0...40_000, using: &rng))
                navd.kill9()
                outcome.startupKills += 1
                usleep(100_000)  // let the watchers print what they saw of that start
            }
            let goneCounts = watchers.map { $0.lines().count }
            let announcementsBefore = recorder.announcements.count
            try navd.start()
            let readyAt = monotonicSeconds()
            let after = try observer.treeSnapshot()
            ledger.recordSeen(ids: after.ids)

            // Every answered revision is there: the revision is at least the highest answered,
            // and the history holds each answered change still within its 1,000 entries.
            if after.revision < highest {
                ledger.recordViolation("round \(round): restarted at revision \(after.revision), but revision \(highest) was answered")
                outcome.lost += answered.filter { $0 > after.revision }.count
            }
            // The history is whole: one entry per change, newest first, up to its 1,000 entries.
            let expectedHistory = Array(stride(from: after.revision, to: after.revision - min(after.revision - 1, 1_000), by: -1))
            if after.historyRevisions != expectedHistory {
                ledger.recordViolation("round \(round): after the restart the history holds \(after.historyRevisions.count) entries \(after.historyRevisions.prefix(3))…\(after.historyRevisions.suffix(2)), expected \(expectedHistory.count) (\(after.revision) down to \(expectedHistory.last ?? 0))")
            }
            // The start-up announcement: cause restore, the revision unchanged. It is the first
            // announcement of the navd just started (one of the navd before the kill may still be
            // arriving, and a flow's Start announces with the cause `start` too).
            let restarted = try observer.nameOwner(Contract.busName) ?? ""
            var startup: SignalRecorder.Announcement?
            let announcementDeadline = monotonicSeconds() + 2
            while startup == nil && monotonicSeconds() < announcementDeadline {
                startup = recorder.announcements.dropFirst(announcementsBefore).first { $0.sender == restarted }
                if startup == nil { usleep(2_000) }
            }
            if let startup {
                if startup.revision != after.revision || startup.cause != "restore" {
                    ledger.recordViolation("round \(round): the start-up StackChanged said \(startup.cause) at \(startup.revision), navd is at \(after.revision)")
                }
            } else {
                ledger.recordViolation("round \(round): no start-up StackChanged within 2 s of the restart")
            }
            let kept = Set(after.historyRevisions)
            let oldestKept = after.historyRevisions.last ?? 0
            for revision in answered where revision >= oldestKept {
                outcome.changesChecked += 1
                if !kept.contains(revision) {
                    outcome.lost += 1
                    ledger.recordViolation("round \(round): answered revision \(revision) is not in the history after the restart")
                }
            }
            if let quietSnapshot {
                outcome.treesVerified += 1
                if quietSnapshot != after {
                    ledger.recordViolation("round \(round): killed while quiet, the tree came back different: \(quietSnapshot.summary) → \(after.summary)")
                }
                // The properties too: CanUndo and CanRedo show that undo and redo survived.
                let properties = try observer.navdProperties()
                if properties != quietProperties {
                    let differing = Set(properties.keys).union(quietProperties.keys).filter { properties[$0] != quietProperties[$0] }.sorted()
                    ledger.recordViolation("round \(round): killed while quiet, properties came back different: \(differing.map { "\($0): \(quietProperties[$0].map { "\($0)" } ?? "-") → \(properties[$0].map { "\($0)" } ?? "-")" })")
                }
            } else if let announced = recorder.announcement(of: after.revision), announced.cause != "restore", announced.cause != "start" {
                let state = try observer.navigator("GetState")
                outcome.pathsVerified += 1
                if state.count != 3 || state[1].stringValue != announced.tab || state[2] != announced.path {
                    ledger.recordViolation("round \(round): revision \(after.revision) came back with another path than StackChanged announced")
                }
            }
            // Watchers resync: a line with the restarted revision within a second of navd answering.
            for (watcher, count) in zip(watchers, goneCounts) {
                if let line = watcher.waitForLine(after: count, timeout: 5, { $0.revision == after.revision }) {
                    outcome.resyncMilliseconds.append(max(0, line.seenAt - readyAt) * 1000)
                } else {
                    outcome.watcherFailures.append("round \(round): navwatch \(watcher.pid) did not show revision \(after.revision) within 5 s of the restart")
                }
            }
        }

        // The last state: every watcher ends on it and never showed a revision out of order.
        let final = try observer.revision()
        outcome.finalRevision = final
        for watcher in watchers { outcome.watcherFailures += watcher.problemsAtTheEnd(final: final) }
        // One more change after all the restarts: its id must be new too. From the rainbow's root, so that it
        // fits whatever the clients left: a path at its limit (128 screens) refuses a Push with LimitExceeded.
        ledger.recordAnswer(revision: try observer.navigator("Open", [.string("root")])[0].uint64Value ?? 0)
        let pushed = try observer.navigator("Push", [.string("orange"), DBusValue.emptyParams])
        ledger.recordChange("Push", revision: pushed[0].uint64Value ?? 0, newId: pushed[1].stringValue)

        outcome.answeredChanges = ledger.changeCount
        outcome.answeredCalls = ledger.answeredCount
        outcome.errors = ledger.errors
        outcome.failures = ledger.failures
        return outcome
    }
}
