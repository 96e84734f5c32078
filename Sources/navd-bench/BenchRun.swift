import BusHarness
import DBus
import Foundation

/// The state of one benchmark run: the sites it started, the figures it has so far.
final class BenchRun {
    let plan: BenchPlan
    let binaries: Binaries
    /// A temporary directory for state, logs and the generated route file.
    let workDirectory: String
    /// navd with persistence on, and the floor, on one bus.
    var main: BenchSite?
    /// navd --ephemeral, and a floor, on another bus.
    var ephemeral: BenchSite?
    var figures: [Figure] = []
    let floorPlacement = """
        navd-floor runs on the same private bus as the navd it is compared with, as org.navd.Floor1 \
        (same bus daemon, same client, same hops: the fair comparison); navd cannot share a bus with \
        another navd (it never queues for its name), so the ephemeral and growth navds each get a bus \
        and a floor of their own
        """

    /// Makes the work directory and starts the main and ephemeral sites.
    init(plan: BenchPlan, binaries: Binaries) throws {
        self.plan = plan
        self.binaries = binaries
        var template = Array("/tmp/navd-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a temporary directory") }
        workDirectory = String(cString: made)
        progress("work directory \(workDirectory)")
        main = try BenchSite(
            name: "main", binaries: binaries, stateDirectory: workDirectory + "/state-main")
        if let navd = main?.navd, let idle = navd.residentMebibytes() {
            var figure = Figure("memory.idle", "navd RSS, idle after start (persistence on)", value: idle, unit: "MiB")
            figure.target = "<= 20 MiB"
            figure.met = idle <= 20
            figures.append(figure)
        }
        ephemeral = try BenchSite(
            name: "ephemeral", binaries: binaries, stateDirectory: nil)
    }

    /// Stops the main and ephemeral sites (the later phases start their own).
    func stopCallSites() {
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
    /// alike; each case gets an untimed warm-up before its timed loop in every round, and
    /// gives samples under one or more keys (a case may itself interleave call by call).
    func interleave(_ cases: [BenchCase]) throws -> [String: Samples] {
        var results: [String: Samples] = [:]
        for round in 0..<plan.rounds {
            for offset in 0..<cases.count {
                let item = cases[(offset + round) % cases.count]
                try item.warmUp()
                for (key, samples) in try item.measure() { results[key, default: Samples()].merge(samples) }
            }
            progress("round \(round + 1) of \(plan.rounds) done")
        }
        return results
    }
}

/// One step of a round: an untimed warm-up, then the timed loop giving samples by key.
struct BenchCase {
    let warmUp: () throws -> Void
    let measure: () throws -> [String: Samples]
}
