import BusHarness
import DBus
import Foundation
import NavigatorProtocol

extension BenchRun {
    /// Apps: one navd serving 1 app and one serving `appCount` (small generated route files,
    /// `--apps-dir`), each with its state on disk. Push/Pop one at a time and 32 in flight on an
    /// app's object against the default object of the same navd, and on an app of the navd with
    /// `appCount` apps against the same app of the one with 1, all interleaved in one navd-load
    /// run per round; the private RSS of both just after start, as growth per app.
    func measureApps() throws {
        let appCount = 50
        let one = try startAppsSite("apps-1", apps: 1)
        defer { one.stop() }
        let many = try startAppsSite("apps-\(appCount)", apps: appCount)
        defer { many.stop() }
        let memoryOne = ProcessMemory.of(one.navd.pid), memoryMany = ProcessMemory.of(many.navd.pid)

        let app = Self.appName(0)
        let subjects: [(String, LoadTarget)] = [
            ("default1", LoadTarget(address: one.bus.address, target: .navd, kind: .pushPop)),
            ("app1", LoadTarget(address: one.bus.address, target: .navd, kind: .pushPop, path: Self.appPath(app))),
            ("defaultMany", LoadTarget(address: many.bus.address, target: .navd, kind: .pushPop)),
            ("appMany", LoadTarget(address: many.bus.address, target: .navd, kind: .pushPop, path: Self.appPath(app))),
        ]
        progress("apps: an app's object against the default one, 1 app against \(appCount), \(plan.rounds) rounds")
        let summary = try serialAndInflight(subjects)
        let default1 = summary("default1.serial"), app1 = summary("app1.serial")
        let defaultMany = summary("defaultMany.serial"), appMany = summary("appMany.serial")
        let default1Pipe = summary("default1.inflight"), app1Pipe = summary("app1.inflight")
        let defaultManyPipe = summary("defaultMany.inflight"), appManyPipe = summary("appMany.inflight")

        figures.append(Figure("apps.latency.default", "navd Push/Pop on the default object, one at a time (1 app loaded)", default1))
        figures.append(checked(Figure(
            "apps.latency.app", "navd Push/Pop on an app's object, one at a time (1 app loaded)", app1, over: default1,
            of: "app p50 / default object p50 (same navd, interleaved)", atMost: 1.05,
            more: "with \(appCount) apps loaded: app p50 / default p50 \(format2(appMany.p50 / defaultMany.p50))")))
        figures.append(Figure("apps.throughput.default", "navd Push/Pop on the default object, 32 in flight (1 app loaded)", default1Pipe))
        var throughput = Figure("apps.throughput.app", "navd Push/Pop on an app's object, 32 in flight (1 app loaded)", app1Pipe)
        throughput.compare(
            ratio: default1Pipe.opsPerSecond / app1Pipe.opsPerSecond,
            of: "default object ops/s / app ops/s (same navd, interleaved)", atMost: 1.05)
        throughput.note = "with \(appCount) apps loaded: default ops/s / app ops/s \(format2(defaultManyPipe.opsPerSecond / appManyPipe.opsPerSecond))"
        figures.append(checked(throughput))

        figures.append(checked(Figure(
            "apps.latency.\(appCount)_apps", "navd Push/Pop on one app's object, one at a time, \(appCount) apps loaded", appMany,
            over: app1, of: "app p50 with \(appCount) apps / the same app's p50 with 1 (two navds, interleaved)", atMost: 1.05,
            more: "the default objects' p50 ratio, \(appCount) apps / 1: \(format2(defaultMany.p50 / default1.p50)); 32 in flight, app ops/s with 1 / with \(appCount): \(format2(app1Pipe.opsPerSecond / appManyPipe.opsPerSecond))")))

        if let memoryOne, let memoryMany {
            let perApp = (memoryMany.anonymous - memoryOne.anonymous) / Double(appCount - 1)
            var memory = Figure("apps.memory.per_app", "navd private (anonymous) RSS per app, idle after start", value: perApp, unit: "MiB")
            memory.target = "<= 0.50 MiB/app"
            memory.met = perApp <= 0.5
            memory.note = "RssAnon idle after start: \(format2(memoryOne.anonymous)) MiB with 1 app, \(format2(memoryMany.anonymous)) MiB with \(appCount) (VmRSS \(format2(memoryOne.total)) and \(format2(memoryMany.total))), over \(appCount - 1) apps"
            if let afterOne = ProcessMemory.of(one.navd.pid), let afterMany = ProcessMemory.of(many.navd.pid) {
                memory.note! += "; after the calls: \(format2(afterOne.anonymous)) and \(format2(afterMany.anonymous)) MiB, \(format2((afterMany.anonymous - afterOne.anonymous) / Double(appCount - 1))) MiB/app"
            }
            figures.append(checked(memory))
        }
    }

    /// `Reload` of an unchanged route file of `CoordinationRouteFile`'s 1,000 routes on one app's
    /// object, one call at a time; and Push/Pop on another app of the same navd, one at a time,
    /// for a while alone and for as long while a second navd-load reloads the first app in a
    /// loop, the rounds alternating.
    func measureReload() throws {
        let directory = workDirectory + "/apps-reload"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let generator = CoordinationRouteFile()
        let large = "large", other = "other"
        try generator.yaml().write(toFile: "\(directory)/\(large).yaml", atomically: true, encoding: .utf8)
        try smallAppRouteFile.write(toFile: "\(directory)/\(other).yaml", atomically: true, encoding: .utf8)
        let site = try BenchSite(
            name: "apps-reload", binaries: binaries, stateDirectory: workDirectory + "/state-apps-reload",
            navdArguments: ["--apps-dir", directory])
        defer { site.stop() }

        let reload = LoadTarget(address: site.bus.address, target: .navd, kind: .reload, path: Self.appPath(large))
        let calls = LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop, path: Self.appPath(other))
        let reloadCalls = plan.quick ? 4 : 20
        let duration = plan.quick ? 500 : 3000
        progress("reload: \(generator.routeCount) routes unchanged, calls to another app beside it, \(plan.rounds) rounds")
        let results = try interleave([
            { round in
                ["reload": try self.load.run(.serial, [reload], calls: reloadCalls, warmUp: 2, seed: 7 + round)[0]]
            },
            { round in
                ["alone": try self.load.run(
                    .serial, [calls], calls: 2, warmUp: self.plan.warmUpCalls, seed: 7 + round,
                    durationMilliseconds: duration)[0]]
            },
            { round in
                // The Reload loop starts first and ends after the calls do, so it covers them.
                let loop = try self.load.start([reload], warmUp: 0, seed: 7 + round, durationMilliseconds: duration + 1500, tag: "reload-loop")
                let beside: Samples
                do {
                    beside = try self.load.run(
                        .serial, [calls], calls: 2, warmUp: self.plan.warmUpCalls, seed: 7 + round,
                        durationMilliseconds: duration)[0]
                } catch {
                    _ = try? self.load.finish(loop)
                    throw error
                }
                return ["beside": beside, "loop": try self.load.finish(loop)[0]]
            },
        ])
        let millisecond = 1_000_000.0
        func summary(_ key: String, unit: Double = 1000) -> Summary { results[key]?.summary(unitNanoseconds: unit) ?? Samples().summary() }
        func maximum(_ key: String) -> Double { Double(results[key]?.nanoseconds.max() ?? 0) / millisecond }
        let reloadSummary = summary("reload", unit: millisecond), loop = summary("loop", unit: millisecond)
        var reloadFigure = Figure(
            "apps.reload.time", "Reload on an app's object, its \(generator.routeCount)-route file unchanged, one at a time",
            reloadSummary, unit: "ms", showOps: false)
        reloadFigure.target = "<= 50 ms p50"
        reloadFigure.met = reloadSummary.p50 <= 50
        reloadFigure.note = "max \(format2(maximum("reload"))) ms; in the loop beside the other app's calls: p50 \(format2(loop.p50)) ms over \(loop.count) Reloads"
        figures.append(checked(reloadFigure))

        let alone = summary("alone", unit: millisecond), beside = summary("beside", unit: millisecond)
        var aloneFigure = Figure("apps.reload.calls_alone", "navd Push/Pop on another app, one at a time, no Reload running", alone, unit: "ms")
        aloneFigure.note = "max \(format2(maximum("alone"))) ms"
        figures.append(checked(aloneFigure))
        let extraMaximum = maximum("beside") - maximum("alone"), extraP99 = beside.p99 - alone.p99
        var stall = Figure(
            "apps.reload.stall", "the same while Reload of the \(generator.routeCount)-route app runs in a loop", beside, unit: "ms")
        stall.target = "<= +50 ms (max over alone)"
        stall.met = extraMaximum <= 50
        stall.note = "max \(format2(maximum("beside"))) ms against \(format2(maximum("alone"))) ms alone: \(signed(extraMaximum)) ms; p99 \(signed(extraP99)) ms; p50 ratio \(format2(beside.p50 / alone.p50))"
        figures.append(checked(stall))

        // Not a target: what a Reload costs when the file did change (a comment line, so the
        // graph stays the same), which every app waits for.
        let changedCalls = plan.quick ? 2 : 10
        let text = generator.yaml()
        var changed = Samples()
        guard let path = Navigator.appPath(large) else { throw BenchError("bad app name \(large)") }
        for index in 0..<changedCalls {
            try (text + "# changed \(index)\n").write(toFile: "\(directory)/\(large).yaml", atomically: true, encoding: .utf8)
            let began = MonotonicClock.nanoseconds()
            _ = try site.client.call(try Navigator.call(.reload, path: path), timeoutMilliseconds: Int32(callTimeoutMilliseconds))
            changed.nanoseconds.append(MonotonicClock.nanoseconds() - began)
        }
        let changedSummary = changed.summary(unitNanoseconds: millisecond)
        var changedFigure = Figure(
            "apps.reload.changed", "Reload on an app's object, a comment of its \(generator.routeCount)-route file changed (no target)",
            changedSummary, unit: "ms", showOps: false)
        changedFigure.note = "the file is parsed again on a thread of its own; only the Reload call waits this long; made by navd-bench's own client, \(changedCalls) calls"
        figures.append(checked(changedFigure))

        // The other app's calls while changed files are reloaded one after another: the parsing
        // runs off navd's thread, so they should not wait for it.
        let running = try load.start([calls], warmUp: plan.warmUpCalls, seed: 99, durationMilliseconds: duration, tag: "beside-changed")
        var reloadsDuring = 0
        let end = MonotonicClock.nanoseconds() + UInt64(duration) * 1_000_000
        do {
            while MonotonicClock.nanoseconds() < end {
                try (text + "# during \(reloadsDuring)\n").write(toFile: "\(directory)/\(large).yaml", atomically: true, encoding: .utf8)
                _ = try site.client.call(try Navigator.call(.reload, path: path), timeoutMilliseconds: Int32(callTimeoutMilliseconds))
                reloadsDuring += 1
            }
        } catch {
            _ = try? load.finish(running)
            throw error
        }
        let besideChanged = try load.finish(running)[0]
        let besideChangedSummary = besideChanged.summary(unitNanoseconds: millisecond)
        let besideChangedMaximum = Double(besideChanged.nanoseconds.max() ?? 0) / millisecond
        var changedStall = Figure(
            "apps.reload.changed_stall",
            "navd Push/Pop on another app while the \(generator.routeCount)-route app's changed file is reloaded again and again",
            besideChangedSummary, unit: "ms")
        changedStall.target = "<= +50 ms (max over alone)"
        changedStall.met = besideChangedMaximum - maximum("alone") <= 50
        changedStall.note = "max \(format2(besideChangedMaximum)) ms against \(format2(maximum("alone"))) ms alone: \(signed(besideChangedMaximum - maximum("alone"))) ms; p50 ratio \(format2(besideChangedSummary.p50 / alone.p50)); \(reloadsDuring) Reloads of a changed file meanwhile (our own target: the issue sets none)"
        figures.append(checked(changedStall))
    }

    /// Writes `apps` small route files into a new folder and starts navd serving them.
    private func startAppsSite(_ name: String, apps: Int) throws -> BenchSite {
        let directory = workDirectory + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in 0..<apps {
            try smallAppRouteFile.write(toFile: "\(directory)/\(Self.appName(index)).yaml", atomically: true, encoding: .utf8)
        }
        let site = try BenchSite(
            name: name, binaries: binaries, stateDirectory: workDirectory + "/state-" + name,
            navdArguments: ["--apps-dir", directory])
        // Every app answers before anything is measured.
        let last = LoadTarget(
            address: site.bus.address, target: .navd, kind: .resolve(event: "next"), path: Self.appPath(Self.appName(apps - 1)))
        let probe = try load.run(.serial, [last], calls: 2, warmUp: 0, seed: 1)
        if probe.contains(where: { $0.errors > 0 }) {
            let log = site.navd.stderr
            site.stop()
            throw BenchError("navd on the \(name) bus does not serve \(last.path):\n\(log)")
        }
        return site
    }

    /// `figure` with its target not met when any of its calls was answered with an error (a
    /// call to an object that is not there is answered at once: its time means nothing).
    func checked(_ figure: Figure) -> Figure {
        guard figure.errors > 0, figure.met != nil else { return figure }
        var figure = figure
        figure.met = false
        figure.note = (figure.note.map { $0 + "; " } ?? "") + "NOT MET: \(figure.errors) calls answered with an error"
        return figure
    }

    /// A difference with its sign, two decimals.
    private func signed(_ value: Double) -> String { (value < 0 ? "" : "+") + format2(value) }

    static func appName(_ index: Int) -> String { "app_\(index < 10 ? "0" : "")\(index)" }

    static func appPath(_ name: String) -> String { Navigator.appsPath.rawValue + "/" + name }
}

/// A small app's route file: two tabs, a dozen routes, a few handlers; `orange` can be pushed
/// on the start screen, as in the demo graph.
let smallAppRouteFile = """
    # Generated by navd-bench: a small app.
    tabs:
      - { name: home, root: red }
      - { name: settings, root: settings }
    selected-tab: home
    on:
      help: { push: help }
    routes:
      red: { title: Red, on: { next: { push: orange } } }
      orange: { title: Orange, on: { next: { push: yellow } } }
      yellow: { title: Yellow, on: { next: { push: green } } }
      green: { title: Green, on: { next: { push: blue } } }
      blue: { title: Blue, params: { note: { type: string } } }
      detail: { title: Detail, params: { id: { type: int, required: true } } }
      list: { title: List, on: { open: { push: detail, params: { id: $event.id } } } }
      settings: { title: Settings, on: { account: { push: account } } }
      account: { title: Account }
      about: { title: About }
      help: { title: Help }
      search: { title: Search }
    limits: { max-undo: 100 }

    """
