import BusHarness
import DBus
import Foundation

/// The state of one benchmark run: the sites it started, the figures it has so far.
final class BenchRun {
    let plan: BenchPlan
    let binaries: Binaries
    /// A temporary directory for state, logs and the generated route file.
    let workDirectory: String
    /// navd with persistence on, the floor and the durable floor, on one bus.
    var main: BenchSite?
    /// navd --ephemeral, and a floor, on another bus.
    var ephemeral: BenchSite?
    /// The dbus-python peer on the main site's bus.
    var python: ChildProcess?
    /// The C load client every call figure goes through.
    let load: LoadClient
    var figures: [Figure] = []
    let floorPlacement = """
        navd-floor runs on the same private bus as the navd it is compared with, as org.navd.Floor1 \
        (same bus daemon, same client, same hops: the fair comparison), and so do the durable floor \
        (navd-floor --state: one SQLite WAL row committed per change, synchronous=NORMAL, before the reply; \
        its file beside navd's state) as org.navd.DurableFloor1 and the dbus-python peer, \
        as org.navd.Python1; navd cannot share a bus with another navd (it never queues for its name), \
        so the ephemeral and growth navds each get a bus and a floor of their own. Every call is made \
        by navd-load, a small C client on libdbus (fan-out: one watcher process per watcher)
        """

    /// Makes the work directory and starts the main and ephemeral sites and the dbus-python
    /// peer; stops what it started when one of them fails.
    init(plan: BenchPlan, binaries: Binaries) throws {
        self.plan = plan
        self.binaries = binaries
        var template = Array("/tmp/navd-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a temporary directory") }
        workDirectory = String(cString: made)
        load = LoadClient(executable: binaries.load, workDirectory: workDirectory)
        progress("work directory \(workDirectory)")
        let main = try BenchSite(
            name: "main", binaries: binaries, stateDirectory: workDirectory + "/state-main",
            durableFloorState: workDirectory + "/durable-floor.sqlite")
        self.main = main
        appendMemoryFigures(
            main.navd.pid, key: "memory.idle", state: "idle after start (persistence on)", privateBudget: LeanTargets.idlePrivateMebibytes,
            residentBudget: LeanTargets.idleResidentMebibytes)
        do {
            python = try startPythonPeer(on: main)
            ephemeral = try BenchSite(name: "ephemeral", binaries: binaries, stateDirectory: nil)
        } catch {
            cleanUp()
            throw error
        }
    }

    /// A site of its own named `name`, its navd persistent (state in the work directory) on the route file `routes`.
    func siteWithRoutes(_ name: String, _ routes: String) throws -> BenchSite {
        let routeFile = workDirectory + "/\(name)-routes.yaml"
        try routes.write(toFile: routeFile, atomically: true, encoding: .utf8)
        return try BenchSite(
            name: name, binaries: binaries, stateDirectory: workDirectory + "/state-\(name)", navdArguments: ["--routes", routeFile])
    }

    /// Stops the main and ephemeral sites (the later phases start their own).
    func stopCallSites() {
        python?.stop()
        python = nil
        main?.stop()
        main = nil
        ephemeral?.stop()
        ephemeral = nil
    }

    /// Stops everything still running and removes the work directory.
    func cleanUp() {
        stopCallSites()
        try? FileManager.default.removeItem(atPath: workDirectory)
    }

    /// Figures so far, as a report.
    func report() -> BenchReport {
        let withTargets = figures.filter { $0.met != nil }
        return BenchReport(
            machine: .current(), callsPerRound: plan.callsPerRound, rounds: plan.rounds, quick: plan.quick,
            floorPlacement: floorPlacement.replacingOccurrences(of: "\n", with: " "), figures: figures,
            targetsMet: withTargets.filter { $0.met == true }.count, targetsTotal: withTargets.count)
    }

    /// Runs `cases` for `rounds` rounds, rotating their order every round so drift hits all
    /// alike; each case is given the round's number (navd-load's seed: a new order of the
    /// targets every round) and gives samples under one or more keys.
    func interleave(_ cases: [(Int) throws -> [String: Samples]]) throws -> [String: Samples] {
        var results: [String: Samples] = [:]
        for round in 0..<plan.rounds {
            for offset in 0..<cases.count {
                for (key, samples) in try cases[(offset + round) % cases.count](round) {
                    results[key, default: Samples()].merge(samples)
                }
            }
            progress("round \(round + 1) of \(plan.rounds) done")
        }
        return results
    }

    /// navd-load over `subjects` (key, target) for every round, interleaved call by call (pair
    /// by pair with `wholePairs`) within each run; the samples by key.
    func loadCase(
        _ mode: LoadMode, _ subjects: [(String, LoadTarget)], calls: Int, warmUp: Int, watchers: Int = 1,
        wholePairs: Bool = false
    ) -> (Int) throws -> [String: Samples] {
        { round in
            let samples = try self.load.run(
                mode, subjects.map(\.1), calls: calls, warmUp: warmUp, seed: 7 + round * 31, watchers: watchers,
                wholePairs: wholePairs)
            return Dictionary(uniqueKeysWithValues: zip(subjects.map(\.0), samples))
        }
    }
}
