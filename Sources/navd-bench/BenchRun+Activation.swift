import Foundation

extension BenchRun {
    /// navd's start to first answer through D-Bus activation under a systemd user manager, with the binaries
    /// measured: Tests/Scripts/activation-times.sh installs them into a temporary home under a user manager of
    /// their own, and times `starts` times a `busctl --user call … GetState` after `systemctl --user stop navd`
    /// (each a start that reads the state the first call made). Given `baseline` (another build's bin folder,
    /// `--lean-baseline`), it is installed beside them under a manager of its own, and the two are started in
    /// turn, `starts` times each; `start.activation`'s median is compared with `before.start.activation`'s.
    /// Where that script cannot run (no systemd, no `unshare -m`), says so and adds no figure.
    func measureActivation(baseline: String? = nil, starts: Int) throws {
        guard let times = try activationTimes([binaries.directory] + (baseline.map { [$0] } ?? []), starts: starts) else { return }
        let mine = times[0], summary = mine.summary(unitNanoseconds: 1e6)
        var figure = Figure(
            "start.activation", "navd start through D-Bus activation (systemd user manager) to the first answer",
            summary, unit: "ms", showOps: false)
        figure.note = "\(starts) starts, each a busctl GetState after systemctl --user stop navd, timed around the whole busctl run; \(mine.range)"
        if baseline != nil {
            let before = times[1], beforeSummary = before.summary(unitNanoseconds: 1e6)
            var baselineFigure = Figure(
                "before.start.activation", "the same, the --lean-baseline build's navd", beforeSummary, unit: "ms", showOps: false)
            baselineFigure.note = "\(starts) starts, in turn with this build's; \(before.range)"
            figures.append(baselineFigure)
            figure.compare(ratio: summary.p50 / beforeSummary.p50, of: "median / the baseline's median", atMost: 1.0)
            figure.note! += String(format: "; fastest / the baseline's fastest %.2f", Double(mine.nanoseconds.min()!) / Double(before.nanoseconds.min()!))
        }
        figures.append(figure)
    }

    /// The activation times activation-times.sh prints for the builds in `directories` (one Samples each, in
    /// the same order), or nil (said) where it cannot run.
    func activationTimes(_ directories: [String], starts: Int) throws -> [Samples]? {
        guard let script = repositoryFile("Tests/Scripts/activation-times.sh") else {
            throw BenchError("Tests/Scripts/activation-times.sh not found (run navd-bench from the repository)")
        }
        progress("navd start through D-Bus activation under systemd, \(starts) starts of each build")
        let result = try captureRun("/bin/bash", [script, String(starts)] + directories, directory: workDirectory)
        if result.status == 77 {
            progress("activation not measured: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
            return nil
        }
        guard result.status == 0 else {
            throw BenchError("activation-times.sh exited \(result.status):\n\(result.output.suffix(2000))")
        }
        var samples = Array(repeating: Samples(), count: directories.count)
        for line in result.output.split(separator: "\n") where line.hasPrefix("activation ") {
            // "activation INDEX: answered in MICROSECONDS us"
            let words = line.split(separator: " ")
            guard words.count == 6, let index = Int(words[1].dropLast()), samples.indices.contains(index),
                let microseconds = UInt64(words[4])
            else { continue }
            samples[index].nanoseconds.append(microseconds * 1000)
            samples[index].elapsedNanoseconds += microseconds * 1000
        }
        guard samples.allSatisfy({ $0.nanoseconds.count == starts }) else {
            throw BenchError("activation-times.sh printed \(samples.map(\.nanoseconds.count)) times, not \(starts) each:\n\(result.output.suffix(2000))")
        }
        return samples
    }
}

extension Samples {
    /// The fastest and the slowest sample, as "fastest 52.1 ms, slowest 61.0 ms".
    var range: String {
        String(format: "fastest %.1f ms, slowest %.1f ms", Double(nanoseconds.min() ?? 0) / 1e6, Double(nanoseconds.max() ?? 0) / 1e6)
    }
}
