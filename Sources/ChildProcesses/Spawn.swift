import Glibc

/// posix_spawn with a clean signal state, and the waits that go with it.
///
/// Test runners block most signals in their threads, and a child inherits that mask: a
/// dbus-daemon or navd started from a test would then ignore SIGTERM. Every child started
/// here gets an empty signal mask and every signal at its default disposition.
/// Not Foundation's `Process`, whose wait hangs when a child forks a daemon that keeps its
/// descriptors, and which leaks a side table per process under LeakSanitizer.
public enum Spawn {
    /// Starts `executable` with stdin from `input` (or /dev/null), stdout to `output` and
    /// stderr to `errors` (or the same file as stdout). The environment is `environment`
    /// when given, else this process' own. Returns the child's pid; throws when it cannot
    /// be executed.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, output: String = "/dev/null", errors: String? = "/dev/null",
        currentDirectory: String? = nil
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // posix_spawn_file_actions_addchdir_np is not exported to Swift: `env -C` changes
        // the directory and then execs the program.
        var program = executable
        var fullArguments = [executable] + arguments
        if let currentDirectory {
            program = "/usr/bin/env"
            fullArguments = ["/usr/bin/env", "-C", currentDirectory, executable] + arguments
        }
        let argv = fullArguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        } else {
            result = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        }
        guard result == 0 else {
            throw SpawnError("cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Reaps `pid` if it has exited: its exit status, or 128 + signal; nil while it runs.
    public static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        return exitStatus(status)
    }

    /// Waits for `pid` (a child) to exit and reaps it: its exit status, or 128 + signal.
    @discardableResult
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return exitStatus(status)
    }

    /// `text` quoted for `sh -c`.
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// A child process that could not be started, with the reason.
public struct SpawnError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
