import Glibc

/// The monotonic clock: what deadlines, timeouts and measured durations are reckoned in.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; never goes backwards.
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Milliseconds since the same fixed point.
    public static func milliseconds() -> Int64 {
        Int64(nanoseconds() / 1_000_000)
    }
}
