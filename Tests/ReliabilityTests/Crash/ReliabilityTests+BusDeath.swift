import DBus
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

extension ReliabilityTests {
    /// The bus itself dies (SIGKILL to dbus-daemon) while clients change the tree: navd exits
    /// with status 1 (so a service manager restarts it), and started on a new bus with the same
    /// state directory it has every answered change.
    @Test(.timeLimit(.minutes(2)))
    func busDeathLosesNothingAnswered() async throws {
        let rounds = ReliabilityMode.pick(short: 2, long: 10)
        try await Self.expectNoProblems("bus-death") { run in
            let (seed, directory) = (run.seed, run.directory)
            var problems: [String] = []
            var rng = SeededGenerator(seed: seed)
            let ledger = CrashLedger()
            var currentBus = run.bus
            var currentNavd = run.navd
            var laterBuses: [PrivateBus] = []
            var laterNavds: [NavdProcess] = []
            defer {
                laterNavds.forEach { $0.stop() }
                laterBuses.forEach { $0.stop() }
            }
            for round in 0..<rounds {
                let clients = (0..<3).map { _ in ChangingClient(address: currentBus.address, ledger: ledger, rng: rng.split()) }
                clients.forEach { $0.start() }
                usleep(UInt32.random(in: 50_000...300_000, using: &rng))
                kill(currentBus.pid, SIGKILL)
                ProcessExit.waitUntilExited(currentBus.pid, timeout: 5)
                for client in clients where !client.join(timeout: 15) { problems.append("round \(round): a client hung after the bus died") }
                let answered = ledger.takeRoundChanges()
                let status = currentNavd.child?.waitForExit(timeout: 10)
                if status != 1 { problems.append("round \(round): navd ended with \(status.map(String.init) ?? "nothing (still running)") when the bus died, expected 1") }

                let newBus = try PrivateBus()
                laterBuses.append(newBus)
                let newNavd = NavdProcess(bus: newBus, stateDirectory: directory)
                laterNavds.append(newNavd)
                try newNavd.start()
                let observer = try Connection(.address(newBus.address))
                defer { observer.close() }
                let after = try observer.treeSnapshot()
                if after.revision < ledger.highest { problems.append("round \(round): restarted at \(after.revision), but \(ledger.highest) was answered") }
                let kept = Set(after.historyRevisions)
                for revision in answered where revision >= (after.historyRevisions.last ?? 0) && !kept.contains(revision) {
                    problems.append("round \(round): answered revision \(revision) is missing after the bus died")
                }
                ledger.recordSeen(ids: after.ids)
                currentBus = newBus
                currentNavd = newNavd
            }
            problems += ledger.failures
            var figures = Figures("bus-death")
            figures.add("seed", seed)
            figures.add("bus-kills", rounds)
            figures.add("answered-changes", ledger.changeCount)
            figures.add("problems", problems.count)
            figures.print()
            return problems
        }
    }
}
