import BusHarness
import DBus
import Foundation
import NavigatorProtocol

extension BenchRun {
    /// Devtools (docs/devtools.md "Bounds"): on a navd of its own with max-history 1,000 and max-undo 100, a stack
    /// of 127 screens, then `plan.devtoolsChanges` Push/Pop changes (32 in flight, the top at 128 screens). Then
    /// GetTree, GetTreeAt of the oldest kept revision (the base) and GetTreeAt of the oldest one History lists,
    /// one call after the other on one connection, every round; then the state file (database + WAL after navd
    /// stopped) and navd's RSS at the end of the run and after a restart. scripts/kept-state-cost.py makes the
    /// same run with several callers and a mix of changes, for any builds side by side.
    func measureDevtools() throws {
        let site = try siteWithRoutes("devtools", devtoolsRouteFile)
        defer { site.stop() }
        _ = try site.client.call(try NavigatorCalls.setStack(["home"] + Array(repeating: "screen", count: 126), on: .navd))
        let changes = plan.devtoolsChanges
        progress("devtools: \(changes.formatted()) changes on a 127-screen stack, max-history 1,000")
        var made = 0
        while made < changes {
            let count = min(20_000, changes - made)
            let target = LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop)
            let samples = try load.run(.inflight, [target], calls: count, warmUp: 0, seed: made, chunk: count, keepSamples: false)[0]
            if samples.errors > 0 { throw BenchError("\(samples.errors) error replies while making the devtools history") }
            made += count + count % 2
        }
        let deep = LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop)
        let pushPop = try interleave([loadCase(.serial, [("navd", deep)], calls: plan.callsPerRound, warmUp: plan.warmUpCalls)])
        var latency = Figure("devtools.push_pop", "navd Push/Pop on a 127-screen stack, one at a time, 1,000 kept changes (persisted)", pushPop["navd"]?.summary() ?? Samples().summary())
        latency.note = "what a commit costs when it keeps the state after it: compare with another build's same figure"
        figures.append(latency)
        let listed = try history(site, limit: 1000)
        guard let oldestListed = listed.last else { throw BenchError("History lists no change") }
        let base = oldestListed - 1

        progress("devtools: GetTreeAt of the oldest kept revision against GetTree, \(plan.rounds) rounds")
        var tree = Samples(), atBase = Samples(), atListed = Samples()
        let calls: [(method: NavigatorMethod, arguments: [DBusValue], key: WritableKeyPath<(Samples, Samples, Samples), Samples>)] = [
            (.getTree, [], \.0), (.getTreeAt, [.uint64(base)], \.1), (.getTreeAt, [.uint64(oldestListed)], \.2),
        ]
        var all = (tree, atBase, atListed)
        for round in 0..<plan.rounds {
            for index in 0..<(plan.callsPerRound + plan.warmUpCalls) {
                for offset in 0..<calls.count {
                    let (method, arguments, key) = calls[(offset + round + index) % calls.count]
                    let message = try NavigatorCalls.call(.navd, method, arguments)
                    let began = MonotonicClock.nanoseconds()
                    _ = try site.client.call(message)
                    if index >= plan.warmUpCalls { all[keyPath: key].nanoseconds.append(MonotonicClock.nanoseconds() - began) }
                }
            }
        }
        (tree, atBase, atListed) = all
        let treeSummary = tree.summary(), baseSummary = atBase.summary(), listedSummary = atListed.summary()
        var figure = Figure("devtools.get_tree_at", "GetTreeAt of the oldest kept revision, max-history 1,000, 128 screens", baseSummary, showOps: false)
        figure.compare(ratio: baseSummary.p50 / treeSummary.p50, of: "p50 / GetTree's p50 (same navd, same tree size, interleaved)", atMost: 1.5)
        figure.note = "GetTree p50 \(formatNumber(treeSummary.p50)) us; GetTreeAt of the oldest change History lists (\(oldestListed)) p50 \(formatNumber(listedSummary.p50)) us, \(format2(listedSummary.p50 / treeSummary.p50)) × GetTree's"
        figures.append(figure)

        let afterRun = ProcessMemory.of(site.navd.pid)
        _ = site.navd.stop()
        let bytes = site.navd.databaseBytes
        var file = Figure("devtools.state_file", "state file after \(made.formatted()) changes (max-history 1,000, max-undo 100)", value: Double(bytes) / 1024, unit: "KiB")
        file.note = "database + WAL after navd stopped; scripts/kept-state-cost.py compares builds"
        figures.append(file)
        try site.navd.start(timeout: 60)
        let afterRestart = ProcessMemory.of(site.navd.pid)
        if let afterRun, let afterRestart {
            var memory = Figure("devtools.rss", "navd RSS after \(made.formatted()) changes (max-history 1,000, 128 screens)", value: afterRun.total, unit: "MiB")
            memory.note = "RssAnon \(format2(afterRun.anonymous)) MiB; after a restart VmRSS \(format2(afterRestart.total)) MiB, RssAnon \(format2(afterRestart.anonymous)) MiB"
            figures.append(memory)
        }
    }

    /// The revisions `History(limit)` lists, newest first.
    private func history(_ site: BenchSite, limit: UInt32) throws -> [UInt64] {
        let reply = try site.client.call(try NavigatorCalls.call(.navd, .history, [.uint32(limit)]))
        guard case .array(_, let entries)? = try reply.body().first else { throw BenchError("History answered \(reply.signature)") }
        return entries.compactMap { entry in
            guard case .structure(let fields) = entry, case .uint64(let revision)? = fields.first else { return nil }
            return revision
        }
    }
}

/// The devtools route file: one stack that holds 128 screens, the limits of the figures.
let devtoolsRouteFile = """
    # Generated by navd-bench for the devtools figures.
    root: home
    routes:
      home: { title: Home }
      screen: { title: Screen }
      orange: { title: Orange }
    limits:
      max-history: 1000
      max-undo: 100

    """
