import DBus
import Glibc

/// The package's monotonic clock, under the name every file of the benchmark uses.
typealias MonotonicClock = DBus.MonotonicClock

/// Sleeps for `milliseconds` (used only while waiting for a process to come up or go away).
func sleepMilliseconds(_ milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
