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
        let summary = try serialAndInflight([
            ("navd", LoadTarget(address: current.bus.address, target: .navd, kind: .pushPop)),
            ("baseline", LoadTarget(address: other.bus.address, target: .navd, kind: .pushPop)),
            ("durableFloor", LoadTarget(address: current.bus.address, target: .durableFloor, kind: .pushPop)),
        ])
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
    }
}
