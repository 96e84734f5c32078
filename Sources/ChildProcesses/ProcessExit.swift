import Glibc

/// Process helpers that work by process id only (never by name).
public enum ProcessExit {
    /// Whether `pid` is gone (or a zombie no one has reaped yet, which is as good as gone).
    public static func hasExited(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // A forked daemon is reparented to PID 1, which in a container may never reap it:
        // its zombie state counts as exited.
        guard let stat = FileText.bytes(atPath: "/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")) else {
            return false
        }
        let state = stat[(close + 1)...].first { $0 != UInt8(ascii: " ") }
        return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    }

    /// Polls every 10 ms until `pid` has exited or `timeout` seconds pass; true if it exited.
    @discardableResult
    public static func waitUntilExited(_ pid: pid_t, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if hasExited(pid) { return true }
            usleep(10_000)
        }
        return hasExited(pid)
    }

    /// SIGTERM, wait up to `grace` seconds, then SIGKILL and wait again. Returns whether the
    /// process is gone.
    @discardableResult
    public static func terminate(_ pid: pid_t, grace: Double = 5) -> Bool {
        guard pid > 0, !hasExited(pid) else { return true }
        kill(pid, SIGTERM)
        if waitUntilExited(pid, timeout: grace) { return true }
        kill(pid, SIGKILL)
        return waitUntilExited(pid, timeout: 5)
    }

    /// Seconds on the monotonic clock (for deadlines that a change of the wall clock does not move).
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
