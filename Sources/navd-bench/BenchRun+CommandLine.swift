import BusHarness
import DBus
import Foundation
import NavigatorProtocol

extension BenchRun {
    /// `navctl push` against `busctl call` of the same Push (whole-process wall time, alternating); given
    /// `baseline` (another build's bin folder, `--lean-baseline`), its navctl too, in the same rotation.
    func measureCommandLine(baseline: String? = nil) throws {
        progress("navctl against busctl, \(plan.cliRuns) runs each")
        let site = try BenchSite(
            name: "cli", binaries: binaries, stateDirectory: workDirectory + "/state-cli")
        defer { site.stop() }
        let address = site.bus.address
        let navctl = (binaries.navctl, ["--address", address, "push", "orange"])
        let busctl = ("/usr/bin/busctl", [
            "--address=\(address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName,
            NavigatorMethod.push.name, NavigatorMethod.push.declaration.inSignature.rawValue, "orange", "0",
        ])
        var samples = ["navctl": Samples(), "busctl": Samples(), "before": Samples()]
        var failures = ["navctl": 0, "busctl": 0, "before": 0]
        var commands = [("navctl", navctl), ("busctl", busctl)]
        if let baseline { commands.append(("before", (baseline + "/navctl", navctl.1))) }
        for run in -2..<plan.cliRuns {  // two untimed warm-up runs each
            let shift = (run + 2) % commands.count
            let order = Array(commands[shift...] + commands[..<shift])
            for (name, command) in order {
                let (elapsed, status) = try timedRun(command.0, command.1)
                // Pop what was pushed, untimed, so every run sees the same stack.
                _ = try? site.client.call(try NavigatorCalls.pop(.navd))
                guard run >= 0 else { continue }
                if status != 0 { failures[name, default: 0] += 1 }
                samples[name]?.nanoseconds.append(elapsed)
                samples[name]?.elapsedNanoseconds += elapsed
            }
        }
        let navctlSummary = samples["navctl"]!.summary(unitNanoseconds: 1e6)
        let busctlSummary = samples["busctl"]!.summary(unitNanoseconds: 1e6)
        var busctlFigure = Figure("cli.busctl_push", "busctl call ... Push, whole process", busctlSummary, unit: "ms", showOps: false)
        busctlFigure.errors = failures["busctl"] ?? 0
        figures.append(busctlFigure)
        var navctlFigure = Figure("cli.navctl_push", "navctl push orange, whole process", navctlSummary, unit: "ms", showOps: false)
        navctlFigure.errors = failures["navctl"] ?? 0
        navctlFigure.compare(ratio: navctlSummary.p50 / busctlSummary.p50, of: "navctl median / busctl median", atMost: 1.0)
        figures.append(navctlFigure)
        if baseline != nil {
            let summary = samples["before"]!.summary(unitNanoseconds: 1e6)
            var figure = Figure("before.cli.navctl_push", "the --lean-baseline build's navctl push orange, in the same rotation", summary, unit: "ms", showOps: false)
            figure.errors = failures["before"] ?? 0
            figure.compare(ratio: summary.p50 / busctlSummary.p50, of: "its median / busctl median")
            figures.append(figure)
        }
    }

    /// navd started directly (not through D-Bus activation: `measureActivation`) on a bus of its
    /// own with a fresh state directory each time: from spawn to the first GetState reply.
    func measureColdStart() throws {
        progress("navd cold start, \(plan.coldStarts) starts")
        let bus = try PrivateBus()
        defer { bus.stop() }
        let watcher = try Connection(.address(bus.address))
        defer { watcher.close() }
        try watcher.addMatch(Navigator.nameOwnerChangedRule)
        var samples = Samples()
        for start in 0..<plan.coldStarts {
            let stateDirectory = "\(workDirectory)/state-cold-\(start)"
            let began = MonotonicClock.nanoseconds()
            let navd = NavdProcess(bus: bus, executable: binaries.navd, stateDirectory: stateDirectory)
            try navd.launch()
            defer { navd.stop() }
            guard waitForNameOwner(watcher, seconds: 30) else {
                throw BenchError("navd did not take its name within 30 s:\n\(navd.logTail())")
            }
            _ = try watcher.call(try NavigatorCalls.getState(.navd), timeoutMilliseconds: 30_000)
            let elapsed = MonotonicClock.nanoseconds() - began
            samples.nanoseconds.append(elapsed)
            samples.elapsedNanoseconds += elapsed
            navd.stop()
            // The name's release, so the next start waits for a fresh owner.
            _ = waitForNameOwner(watcher, seconds: 5)
        }
        var figure = Figure("cli.cold_start", "navd start (direct exec, fresh state dir) to first GetState reply", samples.summary(unitNanoseconds: 1e6), unit: "ms", showOps: false)
        figure.note = "started directly; through D-Bus activation under systemd: start.activation"
        figures.append(figure)
    }

    /// Waits for the next NameOwnerChanged about navd's name on `connection`.
    private func waitForNameOwner(_ connection: Connection, seconds: Double) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while MonotonicClock.nanoseconds() < deadline {
            if connection.waitForMessages(timeoutMilliseconds: 100) == .disconnected { return false }
            while let message = connection.popMessage() {
                if message.kind == .signal && message.member == "NameOwnerChanged" { return true }
            }
        }
        return false
    }
}
