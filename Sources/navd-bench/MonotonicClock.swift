import Glibc

/// The monotonic clock in nanoseconds: what every figure of the benchmark is timed with.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; never goes backwards.
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// Sleeps for `milliseconds` (used only while waiting for a process to come up or go away).
func sleepMilliseconds(_ milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
