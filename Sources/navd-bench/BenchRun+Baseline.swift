import Foundation

extension BenchRun {
    /// Baseline (`--baseline-navd FILE`): persisted Push/Pop on this navd and on another build's (the one before
    /// a change), each on a bus of its own with its state on disk, one at a time and 32 in flight, interleaved in
    /// one navd-load run per round with the durable floor beside this navd: whether a change moved navd's
    /// figures, as ratios taken in one run.
    func measureBaseline(_ baseline: String) throws {
        let current = try BenchSite(
            name: "baseline-current", binaries: binaries, stateDirectory: workDirectory + "/state-baseline-current",
            durableFloorState: workDirectory + "/baseline-durable-floor.sqlite3")
        defer { current.stop() }
        var before = binaries
        before.navdInstead = baseline
        let other = try BenchSite(name: "baseline-before", binaries: before, stateDirectory: workDirectory + "/state-baseline-before")
        defer { other.stop() }
        progress("baseline: this navd against \(baseline), \(plan.rounds) rounds")
        let cpu = CPUTally()
        let summary = try serialAndInflight([
            ("navd", LoadTarget(address: current.bus.address, target: .navd, kind: .pushPop)),
            ("baseline", LoadTarget(address: other.bus.address, target: .navd, kind: .pushPop)),
            ("durableFloor", LoadTarget(address: current.bus.address, target: .durableFloor, kind: .pushPop)),
        ], cpu: [("navd", current.navd.pid), ("baseline", other.navd.pid)], tally: cpu)
        let navd = summary("navd.serial"), old = summary("baseline.serial"), durable = summary("durableFloor.serial")
        let navdPipe = summary("navd.inflight"), oldPipe = summary("baseline.inflight")

        figures.append(Figure("baseline.navd.serial", "the baseline navd (\(baseline)) Push/Pop, persisted, one at a time", old))
        figures.append(checked(Figure(
            "baseline.latency", "navd Push/Pop, persisted, one at a time, against the baseline navd", navd, over: old,
            of: "navd p50 / baseline navd p50 (two navds, interleaved)", atMost: 1.05,
            more: "against the durable floor: navd \(format2(navd.p50 / durable.p50)), the baseline \(format2(old.p50 / durable.p50))")))
        var throughput = Figure("baseline.throughput", "navd Push/Pop, persisted, 32 in flight, against the baseline navd", navdPipe)
        throughput.compare(
            ratio: oldPipe.opsPerSecond / navdPipe.opsPerSecond, of: "baseline ops/s / navd ops/s (two navds, interleaved)",
            atMost: 1.05)
        figures.append(checked(throughput))
        figures.append(cpuPerChange(cpu, key: "navd", against: ("baseline", "the baseline navd", 1.05), figure: "baseline.cpu.per_change"))
    }

    /// `figure`: the CPU time (utime + stime) `key`'s navd spent per change over the 32-in-flight runs,
    /// in µs, its ratio over `against`'s checked against its bound.
    func cpuPerChange(
        _ tally: CPUTally, key: String, against: (key: String, name: String, atMost: Double)?, figure: String, more: String? = nil
    ) -> Figure {
        let perChange = tally.microsecondsPerChange(key)
        var result = Figure(figure, "navd's CPU time (utime + stime) per change, Push/Pop, 32 in flight", value: perChange, unit: "us")
        var note = "\(tally.changes(key)) changes"
        if let against {
            let other = tally.microsecondsPerChange(against.key)
            result.compare(ratio: perChange / other, of: "navd CPU per change / \(against.name)'s", atMost: against.atMost)
            note += "; \(against.name): \(format2(other)) us over \(tally.changes(against.key)) changes"
        }
        result.note = note + "; /proc/PID/stat counts in clock ticks (10 ms)" + (more.map { "; " + $0 } ?? "")
        return result
    }
}
