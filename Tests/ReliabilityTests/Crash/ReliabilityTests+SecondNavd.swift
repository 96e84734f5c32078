import DBus
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

extension ReliabilityTests {
    /// While clients change the tree, a second navd on the same bus, and one on another bus
    /// with the same state directory, both refuse to start (status 1, a message saying why),
    /// and the first loses nothing: its tree after a kill and restart is the one it served.
    @Test(.timeLimit(.minutes(2)))
    func secondNavdLeavesTheFirstUntouched() async throws {
        try await Self.expectNoProblems("second-navd", shown: .max) { run in
            let (bus, navd, directory) = (run.bus, run.navd, run.directory)
            var problems: [String] = []
            let ledger = CrashLedger()
            var rng = SeededGenerator(seed: run.seed)
            let clients = (0..<2).map { _ in ChangingClient(address: bus.address, ledger: ledger, rng: rng.split()) }
            clients.forEach { $0.start() }
            defer { clients.forEach { $0.requestStop() } }
            usleep(100_000)

            // The same bus: the name is taken.
            let sameBus = try ChildProcess.run(
                NavdProcess.executable, ["--address", bus.address, "--state-dir", Self.temporaryDirectory("second")], timeout: 20)
            if sameBus.status != 1 || !sameBus.stderr.lowercased().contains("already running") {
                problems.append("a second navd on the same bus exited \(sameBus.status) with: \(sameBus.stderr)")
            }
            // Another bus, the same state directory: the directory is locked.
            let otherBus = try PrivateBus()
            defer { otherBus.stop() }
            let sameDirectory = try ChildProcess.run(NavdProcess.executable, ["--address", otherBus.address, "--state-dir", directory], timeout: 20)
            if sameDirectory.status != 1 || !sameDirectory.stderr.contains(directory) {
                problems.append("a second navd on the same state directory exited \(sameDirectory.status) with: \(sameDirectory.stderr)")
            }

            clients.forEach { $0.requestStop() }
            for client in clients where !client.join(timeout: 15) { problems.append("a client did not stop") }
            let observer = try Connection(.address(bus.address))
            defer { observer.close() }
            let served = try observer.treeSnapshot()
            if served.revision < ledger.highest { problems.append("navd is at \(served.revision) but \(ledger.highest) was answered") }
            navd.kill9()
            try navd.start()
            let restored = try observer.treeSnapshot()
            if restored != served { problems.append("after the refused starts and a kill, the tree came back different: \(served.summary) → \(restored.summary)") }
            problems += ledger.failures

            var figures = Figures("second-navd")
            figures.add("same-bus-status", sameBus.status)
            figures.add("same-state-dir-status", sameDirectory.status)
            figures.add("answered-changes-meanwhile", ledger.changeCount)
            figures.print()
            return problems
        }
    }
}
