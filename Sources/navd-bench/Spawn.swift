import Glibc

/// Starts `executable arguments…` with stdin on /dev/null and stdout and stderr on the given
/// descriptors (nil: /dev/null); returns its pid. posix_spawn, not Foundation's Process,
/// whose wait hangs when a child forks a daemon that keeps its pipes.
func spawn(_ executable: String, _ arguments: [String], standardOutput: Int32? = nil, standardError: Int32? = nil) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let standardOutput {
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    if let standardError {
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    // A clean signal state: a parent that blocks or ignores SIGTERM (test runners do) must not
    // pass that on, or the child could not be stopped by its pid.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard result == 0 else { throw BenchError("cannot run \(executable): \(String(cString: strerror(result)))") }
    return pid
}

/// Waits for `pid` to exit; its exit status, or -1 when a signal ended it.
@discardableResult
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

/// Whether `pid` (a child) has exited, reaping it if so; never blocks.
func hasExited(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
}

/// Runs `executable arguments…` with output on /dev/null and waits; its wall time from spawn
/// to exit (ns) and its exit status.
func timedRun(_ executable: String, _ arguments: [String]) throws -> (nanoseconds: UInt64, status: Int32) {
    let start = MonotonicClock.nanoseconds()
    let pid = try spawn(executable, arguments)
    let status = waitForExit(pid)
    return (MonotonicClock.nanoseconds() - start, status)
}
