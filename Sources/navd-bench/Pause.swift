import Glibc

/// Sleeps for `milliseconds` (used only while waiting for a process to come up or go away).
func sleepMilliseconds(_ milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}
