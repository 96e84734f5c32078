import BusHarness

/// Runs `executable arguments…` with output on /dev/null and waits; its wall time from spawn
/// to exit (ns) and its exit status (128 + signal when a signal ended it).
func timedRun(_ executable: String, _ arguments: [String]) throws -> (nanoseconds: UInt64, status: Int32) {
    let start = MonotonicClock.nanoseconds()
    let pid = try Spawn.start(executable, arguments)
    let status = Spawn.waitForExit(pid)
    return (MonotonicClock.nanoseconds() - start, status)
}
