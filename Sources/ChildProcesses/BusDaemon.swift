import Glibc

/// Starting a private dbus-daemon: `PrivateBusConfiguration` written into a folder the caller owns,
/// `dbus-daemon --fork`, and the address and pid it prints. Shared by the tests' `PrivateBus` and
/// `navctl replay`; whoever starts one stops it by its pid (`ProcessExit.terminate`).
public enum BusDaemon {
    /// A started daemon: the address to connect to (`unix:abstract=…` or `unix:path=…`) and its pid.
    public struct Started: Sendable {
        /// The bus address.
        public var address: String
        /// The daemon's process id (it is not a child of the caller: `--fork` reparents it).
        public var pid: pid_t
    }

    /// Writes the configuration (plus `extraConfiguration`) to `DIRECTORY/bus.conf` and starts the daemon
    /// as `LAUNCHER… dbus-daemon …`, waiting at most `timeout` seconds for it to print its address and pid.
    public static func start(
        in directory: String, extraConfiguration: String = "", timeout: Double = 10, launcher: [String] = []
    ) throws(SpawnError) -> Started {
        let configurationPath = directory + "/bus.conf"
        try write(PrivateBusConfiguration.text(extraXML: extraConfiguration), to: configurationPath)
        // With --fork the launcher prints the address and the daemon's pid, then exits while the daemon keeps
        // running. Spawned with a clean signal mask (`Spawn`), so that the daemon obeys SIGTERM.
        let outputPath = directory + "/launcher.out"
        let daemon = [try executable(), "--config-file=\(configurationPath)", "--fork", "--print-address=1", "--print-pid=1"]
        let command = launcher + daemon
        let pid = try Spawn.start(command[0], Array(command.dropFirst()), output: outputPath, errors: nil)
        let deadline = ProcessExit.monotonicSeconds() + timeout
        var status: Int32?
        while status == nil {
            status = Spawn.reap(pid)
            if status == nil, ProcessExit.monotonicSeconds() >= deadline {
                kill(pid, SIGKILL)
                Spawn.waitForExit(pid)
                throw SpawnError("dbus-daemon did not print its address within \(timeout) s")
            }
            if status == nil { usleep(2_000) }
        }
        let printed = FileText.read(outputPath) ?? ""
        guard status == 0 else { throw SpawnError("dbus-daemon did not start (status \(status ?? -1)): \(printed)") }
        let lines = printed.split(separator: "\n").map { String($0.filter { $0 != " " }) }
        guard lines.count >= 2, let daemonPid = pid_t(lines[1]), lines[0].hasPrefix("unix:") else {
            throw SpawnError("dbus-daemon printed no address and pid: '\(printed)'")
        }
        return Started(address: lines[0], pid: daemonPid)
    }

    /// The dbus-daemon binary, or an error saying it is missing.
    public static func executable() throws(SpawnError) -> String {
        for candidate in ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        where access(candidate, X_OK) == 0 {
            return candidate
        }
        throw SpawnError("dbus-daemon is not installed (apt install dbus-daemon)")
    }

    /// Writes `text` to a new file `path` (mode 0600).
    static func write(_ text: String, to path: String) throws(SpawnError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SpawnError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw SpawnError("cannot write \(path): \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(written)
        }
    }
}
