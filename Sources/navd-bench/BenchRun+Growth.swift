import DBus
import Foundation

extension BenchRun {
    /// Items 5 and 6: Push/Pop p50 on the `main` tab with 1, 100 and 10,000 screens in the
    /// `elsewhere` tab's stack, then after `historyChanges` further changes; navd's RSS with
    /// 10,000 screens and after the history. Each level interleaves navd with the floor on the
    /// same bus, and the ratio is navd/floor at that level over navd/floor with 1 screen, so
    /// the machine's drift between levels cancels out.
    func measureGrowth() throws {
        let routeFile = workDirectory + "/growth-routes.yaml"
        try growthRouteFile.write(toFile: routeFile, atomically: true, encoding: .utf8)
        let site = try BenchSite(
            name: "growth", binaries: binaries, stateDirectory: workDirectory + "/state-growth",
            navdArguments: ["--routes", routeFile])
        defer { site.stop() }

        var baseline: Double?
        var baselineMean: Double?
        func level(_ key: String, _ label: String) throws {
            let calls = plan.callsPerRound
            let warm = plan.warmUpCalls
            let subjects: [(Connection, CallTarget, CallKind)] = [(site.client, .floor, .pushPop), (site.client, .navd, .pushPop)]
            let results = try interleave([
                BenchCase(
                    warmUp: { _ = try CallMeasurement.serialInterleaved(subjects, calls: warm) },
                    measure: {
                        let samples = try CallMeasurement.serialInterleaved(subjects, calls: calls)
                        return ["floor": samples[0], "navd": samples[1]]
                    })
            ])
            let navd = results["navd"]?.summary() ?? Samples().summary()
            let floor = results["floor"]?.summary() ?? Samples().summary()
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

        progress("item 5: growth, 1 screen elsewhere")
        try level("growth.screens_1", "navd Push/Pop, 1 screen elsewhere in the tree")
        progress("item 5: growth, 100 screens elsewhere")
        try fillElsewhere(site, screens: 100)
        try level("growth.screens_100", "navd Push/Pop, 100 screens elsewhere (one deep stack in another tab)")
        progress("item 5: growth, 10,000 screens elsewhere")
        try fillElsewhere(site, screens: 10_000)
        try level("growth.screens_10000", "navd Push/Pop, 10,000 screens elsewhere (one deep stack in another tab)")

        let before = site.navd.residentMebibytes() ?? 0
        var tenThousand = Figure("memory.screens_10000", "navd RSS with 10,000 screens in the tree", value: before, unit: "MiB")
        tenThousand.target = "<= 40 MiB"
        tenThousand.met = before <= 40
        figures.append(tenThousand)

        let (made, stopReason) = try makeHistory(site, changes: plan.historyChanges)
        let after = site.navd.residentMebibytes() ?? 0
        let historyLabel = made.formatted()
        var afterHistory = Figure("memory.after_history", "navd RSS after \(historyLabel) more changes", value: after, unit: "MiB")
        afterHistory.target = "<= +5 MiB over the history"
        afterHistory.met = after - before <= 5 && made >= plan.historyChanges
        afterHistory.note = "grew \(format2(after - before)) MiB over \(historyLabel) changes (from \(format2(before)) MiB)"
        if let stopReason { afterHistory.note! += "; stopped at \(historyLabel) of \(plan.historyChanges.formatted()) changes: \(stopReason)" }
        figures.append(afterHistory)

        progress("item 5: growth, after the history")
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

    /// Up to `changes` Push/Pop calls, 32 in flight, in chunks; stops early (saying why) when
    /// the time budget is spent or navd's RSS passes the memory guard, so a daemon whose cost
    /// grows with the history cannot hold the machine. Returns the changes made.
    private func makeHistory(_ site: BenchSite, changes: Int) throws -> (made: Int, stopReason: String?) {
        let chunk = 2000
        var made = 0
        let began = MonotonicClock.nanoseconds()
        var lastReport = began
        while made < changes {
            let seconds = Double(MonotonicClock.nanoseconds() - began) / 1e9
            if seconds > plan.historySeconds {
                return (made, "time budget of \(Int(plan.historySeconds)) s spent (\(Int(Double(made) / seconds)) changes per second)")
            }
            if let rss = site.navd.residentMebibytes(), rss > plan.historyMemoryGuardMebibytes {
                return (made, "navd's RSS passed the \(Int(plan.historyMemoryGuardMebibytes)) MiB guard (\(Int(rss)) MiB)")
            }
            let count = min(chunk, changes - made)
            let samples = try CallMeasurement.pipelined(site.client, .navd, .pushPop, calls: count)
            if samples.errors > 0 { throw BenchError("\(samples.errors) error replies while making history") }
            made += count + count % 2
            let now = MonotonicClock.nanoseconds()
            if now - lastReport > 10_000_000_000 || made >= changes {
                lastReport = now
                let elapsed = Double(now - began) / 1e9
                progress("item 5/6: \(made) of \(changes) changes made (\(Int(Double(made) / elapsed)) per second)")
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
