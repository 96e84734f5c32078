import BusHarness
import ArgumentParser
import Foundation

/// `navd-bench`: navd's benchmark. Argument parsing and the order of the phases only.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navd-bench",
        abstract: "Measure navd against the bus's own floor (Ping, the C service navd-floor), a durable floor (navd-floor committing each change to SQLite) and a dbus-python peer, side by side in one run.",
        discussion: """
            Starts private dbus-daemons, navd (persistence on, temporary state directory), navd --ephemeral, \
            navd-floor (twice: stateless, and with --state, committing one SQLite WAL row per change before it replies) \
            and scripts/navd-pypeer.py; navd, navd-floor and the C load client navd-load are found \
            next to navd-bench (or in --bin-dir). Every call figure is made by navd-load and interleaves navd \
            and the others over the rounds (the apps figures: navds serving 1 and 50 apps from generated \
            route files, and Reload of a 1,000-route app beside calls to another); prints a table, and with --json the same figures as JSON. \
            No figure is asserted: targets are reported as met or not.
            """
    )

    @Option(name: .long, help: "Timed calls per figure and round (after a warm-up).")
    var calls: Int = 2000

    @Option(name: .long, help: "Rounds; each round measures every figure once, in a rotated order.")
    var rounds: Int = 5

    @Flag(name: .long, help: "Tiny counts for the test suite's smoke run (the figures are not meaningful).")
    var quick = false

    @Flag(name: .long, help: "Skip the growth, memory-over-history and devtools figures (idle memory is always measured).")
    var skipGrowth = false

    @Flag(name: .long, help: "Skip navctl against busctl, navd's start (direct and through D-Bus activation) and the sizes.")
    var skipCli = false

    @Flag(name: .long, help: "Measure only Send and Resolve against Push (the coordination figures); skip every other phase but idle memory.")
    var onlyCoordination = false

    @Flag(name: .long, help: "Measure only the apps figures (an app's object against the default one, 50 apps, Reload); skip every other phase but idle memory.")
    var onlyApps = false

    @Flag(name: .long, help: "Measure only the lean figures: each binary's stripped size and the install's, idle memory (private and file-backed), navd's start to its first answer (direct and through D-Bus activation).")
    var onlyLean = false

    @Flag(name: .long, help: "Measure only the devtools figures (GetTreeAt of the oldest kept revision against GetTree, the state file and memory after a history); skip every other phase but idle memory.")
    var onlyDevtools = false

    @Option(name: .long, help: ArgumentHelp("Also report this package's Installed-Size (install.deb), such as the one make deb built.", valueName: "file"))
    var deb: String?

    @Option(name: .long, help: ArgumentHelp("Also write the figures as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write the run as Markdown to this file: what was run, on what, the table and the notes (docs/performance.md holds one).", valueName: "file"))
    var markdown: String?

    @Option(name: .long, help: ArgumentHelp("With --only-lean: another build's bin folder (such as main's release) whose binaries' size and start through D-Bus activation are measured in the same run, in turn with this build's.", valueName: "dir"))
    var leanBaseline: String?

    @Option(name: .long, help: ArgumentHelp("Where navd, navctl, navwatch, navd-floor and navd-load are (default: next to navd-bench).", valueName: "dir"))
    var binDir: String?

    @Option(name: .long, help: ArgumentHelp("Measure only this navd (another build's, such as the one before a change) against the one in --bin-dir: persisted Push/Pop, interleaved; skip every other phase but idle memory.", valueName: "file"))
    var baselineNavd: String?

    @Option(name: .long, help: "Changes of history before the last growth figure (default 1,000,000; 200 with --quick).")
    var historyChanges: Int?

    @Option(name: .long, help: "Most seconds spent making that history (default 900; 8 with --quick); the figure says when it stopped early.")
    var historySeconds: Double?

    mutating func validate() throws {
        if calls < 2 { throw ValidationError("--calls must be at least 2") }
        if rounds < 1 { throw ValidationError("--rounds must be at least 1") }
        if [onlyApps, onlyCoordination, onlyLean, onlyDevtools, baselineNavd != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--only-apps, --only-coordination, --only-lean, --only-devtools and --baseline-navd exclude each other")
        }
        if let deb, !FileManager.default.isReadableFile(atPath: deb) { throw ValidationError("--deb \(deb): no such file") }
    }

    func run() throws {
        let plan = BenchPlan(
            callsPerRound: quick ? min(calls, 40) : calls,
            rounds: quick ? min(rounds, 2) : rounds,
            quick: quick,
            historyChanges: historyChanges ?? (quick ? 200 : 1_000_000),
            historySeconds: historySeconds ?? (quick ? 8 : 900))
        let binaries = Binaries(directory: binDir ?? Binaries.besideSelf())
        var needed = ["navd", "navd-floor", "navd-load"]
        let onlyBaseline = baselineNavd != nil
        let only = onlyCoordination || onlyApps || onlyLean || onlyDevtools || onlyBaseline
        let skipCli = skipCli || onlyCoordination || onlyApps || onlyDevtools || onlyBaseline, skipGrowth = skipGrowth || only
        if !skipCli { needed += ["navctl", "navwatch"] }
        do {
            try binaries.check(needed)
        } catch {
            FileHandle.standardError.write(Data("navd-bench: \(error)\n".utf8))
            throw ExitCode(2)
        }
        ProcessRegistry.stopAllOnInterrupt()
        let run = try BenchRun(plan: plan, binaries: binaries)
        defer { run.cleanUp() }
        var failures: [String] = []
        func phase(_ name: String, _ body: () throws -> Void) {
            do {
                try body()
            } catch {
                failures.append("\(name): \(error)")
                FileHandle.standardError.write(Data("navd-bench: \(name) failed: \(error)\n".utf8))
            }
        }
        if !only {
            phase("latency and throughput") { try run.measureCallFigures() }
            phase("fan-out") { try run.measureFanOut() }
        }
        if !onlyApps && !onlyLean && !onlyDevtools && !onlyBaseline { phase("coordination") { try run.measureCoordination() } }
        run.stopCallSites()
        if let baselineNavd { phase("baseline") { try run.measureBaseline(baselineNavd) } }
        if !onlyCoordination && !onlyLean && !onlyDevtools && !onlyBaseline {
            phase("apps") { try run.measureApps() }
            phase("access") { try run.measureAccess() }
            phase("reload") { try run.measureReload() }
        }
        if !skipCli {
            phase("command line") { try run.measureCommandLine(baseline: leanBaseline) }
            phase("start") { try run.measureColdStart() }
            phase("installed size") { try run.measureInstalledSize(deb: deb, baseline: leanBaseline) }
            phase("start through D-Bus activation") { try run.measureActivation(baseline: leanBaseline, starts: quick ? 3 : leanBaseline == nil ? 10 : 40) }
        }
        if !skipGrowth { phase("growth and memory") { try run.measureGrowth() } }
        if !skipGrowth || onlyDevtools { phase("devtools") { try run.measureDevtools() } }
        let report = run.report()
        print(report.table(), terminator: "")
        if let json { try report.writeJSON(to: json) }
        if let markdown {
            let run = "navd-bench " + CommandLine.arguments.dropFirst().filter { $0 != markdown }.filter { $0 != "--markdown" }.joined(separator: " ")
            try report.markdown(run: run).write(toFile: markdown, atomically: true, encoding: .utf8)
        }
        if !failures.isEmpty {
            print("\nNOT MEASURED (the phase failed):\n" + failures.map { "  \($0)" }.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }
}

/// The counts a run uses.
struct BenchPlan {
    /// Timed calls per figure and round, and rounds.
    var callsPerRound, rounds: Int
    /// Tiny counts for the smoke run: the counts below follow it.
    var quick: Bool
    /// Changes of history before the last growth figure.
    var historyChanges: Int
    /// Time budget for making the history.
    var historySeconds: Double

    /// navd's RSS beyond which the history stops (the machine is shared).
    var historyMemoryGuardMebibytes: Double { 4096 }
    /// Runs of navctl and of busctl each.
    var cliRuns: Int { quick ? 3 : 50 }
    /// Changes before the devtools figures (GetTreeAt, the state file and memory at max-history 1,000).
    var devtoolsChanges: Int { quick ? 400 : 100_000 }
    /// Direct starts of navd timed.
    var coldStarts: Int { quick ? 2 : 20 }

    /// Untimed calls before each timed loop.
    var warmUpCalls: Int { max(10, min(300, callsPerRound / 5)) }
    /// Calls per fan-out figure and round (each waits for every watcher).
    var fanOutCalls: Int { max(10, callsPerRound / 4) }
}

/// Progress lines go to stderr, so stdout holds only the table.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("navd-bench: \(line)\n".utf8))
}
