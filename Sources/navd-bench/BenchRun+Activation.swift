import Foundation

extension BenchRun {
    /// navd's start to first answer through D-Bus activation under a systemd user manager, with
    /// the binaries measured: Tests/Scripts/activation-test.sh installs them into a temporary
    /// home, and times the first `busctl --user call … Push` (which starts navd through the
    /// user bus) and, after `systemctl --user stop navd`, a `GetState` that starts it again.
    /// Where that script cannot run (no systemd, no `unshare -m`), says so and adds no figure.
    func measureActivation() throws {
        guard let script = repositoryFile("Tests/Scripts/activation-test.sh") else {
            throw BenchError("Tests/Scripts/activation-test.sh not found (run navd-bench from the repository)")
        }
        progress("navd start through D-Bus activation under systemd")
        let result = try captureRun("/bin/bash", [script, binaries.directory], directory: workDirectory)
        if result.status == 77 {
            progress("activation not measured: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        guard result.status == 0 else {
            throw BenchError("activation-test.sh exited \(result.status):\n\(result.output.suffix(2000))")
        }
        var samples = Samples()
        var times: [String] = []
        for line in result.output.split(separator: "\n") where line.hasPrefix("activation") {
            guard let range = line.range(of: #"answered in [0-9]+ ms"#, options: .regularExpression),
                let milliseconds = UInt64(line[range].split(separator: " ")[2])
            else { continue }
            samples.nanoseconds.append(milliseconds * 1_000_000)
            samples.elapsedNanoseconds += milliseconds * 1_000_000
            times.append("\(milliseconds) ms")
        }
        guard !samples.nanoseconds.isEmpty else { throw BenchError("activation-test.sh printed no time:\n\(result.output)") }
        var figure = Figure(
            "start.activation", "navd start through D-Bus activation (systemd user manager) to the first answer",
            samples.summary(unitNanoseconds: 1e6), unit: "ms", showOps: false)
        figure.note = "activations, each timed around a whole busctl run: the first Push (fresh state), then GetState after systemctl --user stop: \(times.joined(separator: ", "))"
        figures.append(figure)
    }
}
