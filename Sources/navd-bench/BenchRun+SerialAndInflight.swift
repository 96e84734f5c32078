import BusHarness
import Foundation

extension BenchRun {
    /// Each subject one call at a time (its key `NAME.serial`) and 32 in flight with twice the calls
    /// (`NAME.inflight`), interleaved in one navd-load run per round: what the latency and throughput
    /// figures of calls, access and apps are made of. Gives the summary of a key (an empty one for a key
    /// with no samples).
    ///
    /// With `cpu` (a subject's key and its navd's pid), each such navd's CPU time over the 32-in-flight runs
    /// is added up in `tally`, with the changes its subject made meanwhile (its timed and warm-up calls).
    func serialAndInflight(
        _ subjects: [(String, LoadTarget)], cpu: [(String, pid_t)] = [], tally: CPUTally? = nil
    ) throws -> (String) -> Summary {
        func keyed(_ suffix: String) -> [(String, LoadTarget)] { subjects.map { ($0.0 + suffix, $0.1) } }
        let warmUp = plan.warmUpCalls
        let inflight = loadCase(.inflight, keyed(".inflight"), calls: plan.callsPerRound * 2, warmUp: warmUp)
        let results = try interleave([
            loadCase(.serial, keyed(".serial"), calls: plan.callsPerRound, warmUp: warmUp),
            { round in
                let before = cpu.map { ProcessStatistics.cpuSeconds($0.1) ?? 0 }
                let samples = try inflight(round)
                for ((key, pid), start) in zip(cpu, before) {
                    let changes = (samples[key + ".inflight"]?.nanoseconds.count ?? 0) + warmUp
                    tally?.add(key, seconds: (ProcessStatistics.cpuSeconds(pid) ?? start) - start, changes: changes)
                }
                return samples
            },
        ])
        return { results.summary(of: $0) }
    }
}

/// CPU time spent by navd processes over a phase, with the changes they made meanwhile, by key.
final class CPUTally {
    private var totals: [String: (seconds: Double, changes: Int)] = [:]

    func add(_ key: String, seconds: Double, changes: Int) {
        totals[key, default: (0, 0)].seconds += seconds
        totals[key, default: (0, 0)].changes += changes
    }

    /// Microseconds of CPU per change for `key` (0 without changes).
    func microsecondsPerChange(_ key: String) -> Double {
        guard let total = totals[key], total.changes > 0 else { return 0 }
        return total.seconds * 1e6 / Double(total.changes)
    }

    /// The changes counted for `key`.
    func changes(_ key: String) -> Int { totals[key]?.changes ?? 0 }
}

extension Dictionary where Key == String, Value == Samples {
    /// The summary of `key`'s samples; an empty one when the run has none under that key.
    func summary(of key: String) -> Summary { self[key]?.summary() ?? Samples().summary() }
}
