import BusHarness
import DBus
import Foundation
import NavigatorProtocol

#if canImport(Glibc)
import Glibc
#endif

extension BenchRun {
    /// Access (docs/multi-user.md): one navd serving two copies of the small app, `open` without an
    /// `access:` key and `owned` with one naming the bench's own uid. Push/Pop one at a time and 32 in
    /// flight on each, interleaved in one navd-load run per round: once a connection is known, the
    /// check must cost nothing measurable. Then a thousand callers, each on a connection of its own,
    /// call `owned` once and leave: navd's private memory before and after, which must stay flat.
    func measureAccess() throws {
        let site = try startAccessSite()
        defer { site.stop() }
        let subjects: [(String, LoadTarget)] = [
            ("open", LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop, path: Self.appPath("open"))),
            ("owned", LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop, path: Self.appPath("owned"))),
        ]
        progress("access: an app with access: against one without, \(plan.rounds) rounds")
        let summary = try serialAndInflight(subjects)
        let open = summary("open.serial"), owned = summary("owned.serial")
        let openPipe = summary("open.inflight"), ownedPipe = summary("owned.inflight")

        var latency = Figure("access.latency", "navd Push/Pop on an app with access:, one at a time (persisted)", owned)
        latency.compare(ratio: owned.p50 / open.p50, of: "p50 with access: / without (same navd, interleaved)", atMost: 1.05)
        latency.note = "without access: p50 \(format2(open.p50)) us; p99 ratio \(format2(owned.p99 / open.p99)); the caller is the bench's own uid, named in change:"
        figures.append(latency)
        var throughput = Figure("access.throughput", "navd Push/Pop on an app with access:, 32 in flight", ownedPipe)
        throughput.compare(
            ratio: openPipe.opsPerSecond / ownedPipe.opsPerSecond, of: "ops/s without access: / with (same navd, interleaved)",
            atMost: 1.05)
        figures.append(throughput)

        let callers = 1_000
        progress("access: \(callers) callers on connections of their own")
        let before = ProcessMemory.of(site.navd.pid)
        try callOnce(site.bus.address, times: callers)
        let after = ProcessMemory.of(site.navd.pid)
        try callOnce(site.bus.address, times: callers)
        let afterTwice = ProcessMemory.of(site.navd.pid)
        if let before, let after, let afterTwice {
            var memory = Figure(
                "access.memory.callers", "navd private RSS growth over the second \(callers) distinct callers (each gone)",
                value: afterTwice.anonymous - after.anonymous, unit: "MiB")
            memory.target = "<= 0.10 MiB"
            memory.met = afterTwice.anonymous - after.anonymous <= 0.1
            memory.note = "RssAnon \(format2(before.anonymous)) MiB before, \(format2(after.anonymous)) after \(callers) callers, \(format2(afterTwice.anonymous)) after \(2 * callers)"
            figures.append(memory)
        }
    }

    /// Each of `times` new connections calls `GetState` on `owned` once, then closes.
    private func callOnce(_ address: String, times: Int) throws {
        for _ in 0..<times {
            let connection = try Connection(.address(address))
            defer { connection.close() }
            _ = try connection.call(
                Message.navigatorCall("GetState", path: Self.appPath("owned")), timeoutMilliseconds: 10_000)
        }
    }

    private func startAccessSite() throws -> BenchSite {
        let directory = workDirectory + "/access"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try smallAppRouteFile.write(toFile: directory + "/open.yaml", atomically: true, encoding: .utf8)
        let uid = getuid()
        let owned = smallAppRouteFile + "\naccess:\n  change: [\"\(uid)\"]\n  read: [\"\(uid)\"]\n"
        try owned.write(toFile: directory + "/owned.yaml", atomically: true, encoding: .utf8)
        let site = try BenchSite(
            name: "access", binaries: binaries, stateDirectory: workDirectory + "/state-access",
            navdArguments: ["--apps-dir", directory])
        let probe = try load.run(.serial, [
            LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop, path: Self.appPath("owned")),
        ], calls: 2, warmUp: 0, seed: 1)
        if probe.contains(where: { $0.errors > 0 }) {
            let log = site.navd.stderr
            site.stop()
            throw BenchError("navd on the access bus does not serve the owned app:\n\(log)")
        }
        return site
    }
}
