import Glibc

/// Runs `executable arguments…` with stdout and stderr on /dev/null and waits for it; returns
/// its wall time from spawn to exit (ns) and its exit status (-1 when it died of a signal).
func timedRun(_ executable: String, _ arguments: [String]) throws -> (nanoseconds: UInt64, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = MonotonicClock.nanoseconds()
    let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard result == 0 else { throw BenchError("cannot run \(executable): \(String(cString: strerror(result)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = MonotonicClock.nanoseconds() - start
    let exited = (status & 0x7f) == 0
    return (elapsed, exited ? (status >> 8) & 0xff : -1)
}
