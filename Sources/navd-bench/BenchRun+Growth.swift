import DBus
import Foundation

extension BenchRun {
    /// Growth: Push/Pop p50 on the `main` tab with 1, 100 and 10,000 screens in the
    /// `elsewhere` tab's stack, then after `historyChanges` further changes; navd's RSS with
    /// 10,000 screens and after the history. Each level interleaves navd with the floor on the
    /// same bus, and the ratio is navd/floor at that level over navd/floor with 1 screen, so
    /// the machine's drift between levels cancels out.
    func measureGrowth() throws {
        let site = try siteWithRoutes("growth", growthRouteFile)
        defer { site.stop() }

        var baseline: Double?
        var baselineMean: Double?
        func level(_ key: String, _ label: String) throws {
            let subjects: [(String, LoadTarget)] = [
                ("floor", LoadTarget(address: site.bus.address, target: .floor, kind: .pushPop)),
                ("navd", LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop)),
            ]
            let results = try interleave([loadCase(.serial, subjects, calls: plan.callsPerRound, warmUp: plan.warmUpCalls)])
            let navd = results.summary(of: "navd"), floor = results.summary(of: "floor")
            let relative = navd.p50 / floor.p50
            var figure = Figure(key, label, navd)
            let base = baseline ?? relative
            baseline = base
            figure.compare(ratio: relative / base, of: "(navd p50 / floor p50) here, over the same with 1 screen", atMost: 1.10)
            let meanRelative = navd.mean / floor.mean
            let baseMean = baselineMean ?? meanRelative
            baselineMean = baseMean
            figure.note = "floor p50 here \(formatNumber(floor.p50)) us; the same ratio of means (stalls show here, not in p50): \(format2(meanRelative / baseMean))"
            figures.append(figure)
        }

        progress("growth, 1 screen elsewhere")
        try level("growth.screens_1", "navd Push/Pop, 1 screen elsewhere in the tree")
        progress("growth, 100 screens elsewhere")
        try fillElsewhere(site, screens: 100)
        try level("growth.screens_100", "navd Push/Pop, 100 screens elsewhere (one deep stack in another tab)")
        progress("growth, 10,000 screens elsewhere")
        try fillElsewhere(site, screens: 10_000)
        try level("growth.screens_10000", "navd Push/Pop, 10,000 screens elsewhere (one deep stack in another tab)")

        appendMemoryFigures(site.navd.pid, key: "memory.screens_10000", state: "with 10,000 screens in the tree", privateBudget: 8)
        let before = ProcessMemory.of(site.navd.pid)?.anonymous ?? 0

        let (made, stopReason) = try makeHistory(site, changes: plan.historyChanges)
        let after = ProcessMemory.of(site.navd.pid)?.anonymous ?? 0
        let historyLabel = made.formatted()
        var afterHistory = Figure("memory.after_history", "navd private (anonymous) RSS after \(historyLabel) more changes", value: after, unit: "MiB")
        afterHistory.target = "<= +5 MiB over the history"
        afterHistory.met = after - before <= 5 && made >= plan.historyChanges
        afterHistory.note = "grew \(format2(after - before)) MiB over \(historyLabel) changes (from \(format2(before)) MiB)"
        if let stopReason { afterHistory.note! += "; stopped at \(historyLabel) of \(plan.historyChanges.formatted()) changes: \(stopReason)" }
        figures.append(afterHistory)

        progress("growth, after the history")
        try level("growth.after_history", "navd Push/Pop after \(historyLabel) more changes (10,000 screens elsewhere)")
        if let stopReason, var last = figures.popLast() {
            last.met = false
            last.note = (last.note ?? "") + "; history stopped early: \(stopReason)"
            figures.append(last)
        }
    }

    /// Makes the `elsewhere` tab's stack `screens` screens deep (its root `base`, then `screen`s)
    /// and selects `main` again: three changes.
    private func fillElsewhere(_ site: BenchSite, screens: Int) throws {
        let routes = ["base"] + Array(repeating: "screen", count: screens - 1)
        _ = try site.client.call(try NavigatorCalls.selectTab("elsewhere", on: .navd))
        _ = try site.client.call(try NavigatorCalls.setStack(routes, on: .navd), timeoutMilliseconds: 60_000)
        _ = try site.client.call(try NavigatorCalls.selectTab("main", on: .navd))
    }

    /// Up to `changes` Push/Pop calls, 32 in flight, in chunks of navd-load runs; stops early (saying why) when
    /// the time budget is spent or navd's RSS passes the memory guard, so a daemon whose cost
    /// grows with the history cannot hold the machine. Returns the changes made.
    private func makeHistory(_ site: BenchSite, changes: Int) throws -> (made: Int, stopReason: String?) {
        let chunk = 20_000
        var made = 0
        let began = MonotonicClock.nanoseconds()
        var lastReport = began
        while made < changes {
            let seconds = Double(MonotonicClock.nanoseconds() - began) / 1e9
            if seconds > plan.historySeconds {
                return (made, "time budget of \(Int(plan.historySeconds)) s spent (\(Int(Double(made) / seconds)) changes per second)")
            }
            if let rss = ProcessMemory.of(site.navd.pid)?.total, rss > plan.historyMemoryGuardMebibytes {
                return (made, "navd's RSS passed the \(Int(plan.historyMemoryGuardMebibytes)) MiB guard (\(Int(rss)) MiB)")
            }
            let count = min(chunk, changes - made)
            let target = LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop)
            let samples = try load.run(.inflight, [target], calls: count, warmUp: 0, seed: made, chunk: count, keepSamples: false)[0]
            if samples.errors > 0 { throw BenchError("\(samples.errors) error replies while making history") }
            made += count + count % 2
            let now = MonotonicClock.nanoseconds()
            if now - lastReport > 10_000_000_000 || made >= changes {
                lastReport = now
                let elapsed = Double(now - began) / 1e9
                progress("history: \(made) of \(changes) changes made (\(Int(Double(made) / elapsed)) per second)")
            }
        }
        return (made, nil)
    }
}

/// The growth route file: two tabs, `main` where the calls go and `elsewhere` whose stack
/// holds the extra screens; limits raised so one stack can hold 10,000 screens.
let growthRouteFile = """
    # Generated by navd-bench for the growth figures.
    tabs:
      - name: main
        root: home
      - name: elsewhere
        root: base
    selected-tab: main
    routes:
      home: { title: Home }
      orange: { title: Orange }
      base: { title: Base }
      screen: { title: Screen }
    limits:
      max-path-depth: 10100
      max-stack-depth: 10100
      max-params-bytes: 16777216
      max-undo: 100

    """
