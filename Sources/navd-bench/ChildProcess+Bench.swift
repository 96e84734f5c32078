import BusHarness

extension ChildProcess {
    /// The resident set size (VmRSS), in MiB; nil when the process is gone.
    func residentMebibytes() -> Double? {
        ProcessStatistics.residentKiB(pid).map { Double($0) / 1024 }
    }

    /// The last lines of its stderr, for error messages.
    func logTail(lines: Int = 15) -> String {
        stderrText.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

extension NavdProcess {
    /// The current navd's resident set size (VmRSS), in MiB; nil when none runs.
    func residentMebibytes() -> Double? { child?.residentMebibytes() }

    /// The last lines of the current navd's log, for error messages.
    func logTail(lines: Int = 15) -> String { child?.logTail(lines: lines) ?? "" }
}
