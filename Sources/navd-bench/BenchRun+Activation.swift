import Foundation

extension BenchRun {
    /// navd's start to first answer through D-Bus activation under a systemd user manager, with
    /// the binaries measured: Tests/Scripts/activation-test.sh installs them into a temporary
    /// home, and times the first `busctl --user call … Push` (which starts navd through the
    /// user bus) and, after `systemctl --user stop navd`, a `GetState` that starts it again.
    /// Where that script cannot run (no systemd, no `unshare -m`), says so and adds no figure.
    /// Given `baseline` (another build's bin folder, `--lean-baseline`), the two are installed and activated
    /// in turn, `rounds` times each, and `start.activation` is compared with `before.start.activation`.
    func measureActivation(baseline: String? = nil, rounds: Int = 1) throws {
        var mine = Samples(), before = Samples()
        for _ in 0..<rounds {
            if let baseline {
                guard let times = try activationTimes(baseline) else { return }
                before.add(times)
            }
            guard let times = try activationTimes(binaries.directory) else { return }
            mine.add(times)
        }
        var figure = Figure(
            "start.activation", "navd start through D-Bus activation (systemd user manager) to the first answer",
            mine.summary(unitNanoseconds: 1e6), unit: "ms", showOps: false)
        figure.note = "activations, each timed around a whole busctl run: the first Push (fresh state), then GetState after systemctl --user stop: \(mine.milliseconds)"
        if baseline != nil {
            var baselineFigure = Figure(
                "before.start.activation", "the same, the --lean-baseline build's navd", before.summary(unitNanoseconds: 1e6), unit: "ms", showOps: false)
            baselineFigure.note = "alternating with this build's, \(rounds) rounds: \(before.milliseconds)"
            figures.append(baselineFigure)
            figure.compare(ratio: mine.summary(unitNanoseconds: 1e6).p50 / before.summary(unitNanoseconds: 1e6).p50, of: "median / the baseline's median", atMost: 1.0)
        }
        figures.append(figure)
    }

    /// The activation times activation-test.sh prints for the binaries in `directory`, or nil (said) where it cannot run.
    func activationTimes(_ directory: String) throws -> [UInt64]? {
        guard let script = repositoryFile("Tests/Scripts/activation-test.sh") else {
            throw BenchError("Tests/Scripts/activation-test.sh not found (run navd-bench from the repository)")
        }
        progress("navd start through D-Bus activation under systemd")
        let result = try captureRun("/bin/bash", [script, directory], directory: workDirectory)
        if result.status == 77 {
            progress("activation not measured: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
            return nil
        }
        guard result.status == 0 else {
            throw BenchError("activation-test.sh exited \(result.status):\n\(result.output.suffix(2000))")
        }
        var times: [UInt64] = []
        for line in result.output.split(separator: "\n") where line.hasPrefix("activation") {
            guard let range = line.range(of: #"answered in [0-9]+ ms"#, options: .regularExpression),
                let milliseconds = UInt64(line[range].split(separator: " ")[2])
            else { continue }
            times.append(milliseconds)
        }
        guard !times.isEmpty else { throw BenchError("activation-test.sh printed no time:\n\(result.output)") }
        return times
    }
}

extension Samples {
    /// Adds whole milliseconds.
    mutating func add(_ milliseconds: [UInt64]) {
        for value in milliseconds {
            nanoseconds.append(value * 1_000_000)
            elapsedNanoseconds += value * 1_000_000
        }
    }

    /// The samples as "12 ms, 9 ms".
    var milliseconds: String { nanoseconds.map { "\($0 / 1_000_000) ms" }.joined(separator: ", ") }
}
