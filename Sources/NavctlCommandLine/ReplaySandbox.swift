#if canImport(Glibc)
import Glibc
#endif
import ChildProcesses
import ClientCommandLine
import DBus
import NavigatorProtocol

/// Why a replay could not go on: a bad input (exit 2) or a replaying navd that died or hung (exit 3).
enum ReplayFailure: Error {
    /// A file that is not a recording, a request navd refuses to read, a route file that does not load.
    case badInput(String)
    /// The private bus or its navd failed (did not start, died, hung).
    case broken(String)

    /// The exit status it ends navctl with.
    var status: Int32 {
        switch self {
        case .badInput: ExitStatus.usage
        case .broken: ExitStatus.unreachable
        }
    }

    /// The sentence for stderr.
    var message: String {
        switch self {
        case .badInput(let text), .broken(let text): text
        }
    }
}

/// The private dbus-daemon and the `navd --ephemeral --from-recording` of one `navctl replay`, in a folder of
/// their own: never the user's bus (its address is not inherited), navd or state. Everything is stopped by
/// pid in `stop()`, at exit, and (SIGKILL) on SIGINT or SIGTERM to navctl: neither keeps anything worth a
/// graceful stop, and a hung navd must go too.
final class ReplaySandbox {
    /// The folder: the bus's configuration, navd's log, an empty apps folder.
    let directory: String
    /// The private bus.
    let bus: BusDaemon.Started
    /// The replaying navd (a child of navctl).
    let navdPid: pid_t
    /// navd's stdout and stderr.
    var logPath: String { directory + "/navd.log" }
    private var navdStatus: Int32?
    /// Whether `stop()` ran: a pid is never signalled after its process was reaped (it may be another's by then).
    private var stopped = false

    /// How long navd may take to take its name on the bus.
    let startSeconds: Double

    /// Starts the bus and navd on `recording` (and `routes`), and waits until navd serves. A navd that
    /// exits 2 (a recording or route file it refuses) is a `.badInput` with its message.
    init(recording: String, routes: String?, startSeconds: Double) throws(ReplayFailure) {
        self.startSeconds = startSeconds
        ProcessRegistry.killAllOnInterrupt()
        var template = Array((Self.temporaryFolder() + "/navctl-replay-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .broken("navctl: replay: cannot make a folder in \(Self.temporaryFolder()): \(String(cString: strerror(errno)))")
        }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        mkdir(directory + "/apps", 0o700)
        do {
            bus = try BusDaemon.start(in: directory)
        } catch {
            Self.removeFolder(directory)
            throw .broken("navctl: replay: cannot start a private bus: \(error.description)")
        }
        ProcessRegistry.remember(bus.pid)
        var arguments = ["--ephemeral", "--from-recording", recording, "--address", bus.address, "--apps-dir", directory + "/apps"]
        if let routes { arguments += ["--routes", routes] }
        let environment = [
            "PATH": Self.variable("PATH") ?? "/usr/bin:/bin", "HOME": directory, "XDG_CONFIG_HOME": directory,
            "XDG_STATE_HOME": directory, "XDG_RUNTIME_DIR": directory,
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": bus.address,
        ]
        do {
            navdPid = try Spawn.start(Self.navdExecutable(), arguments, environment: environment, output: directory + "/navd.log", errors: nil)
        } catch {
            ProcessExit.terminate(bus.pid, grace: 1)
            ProcessRegistry.forget(bus.pid)
            Self.removeFolder(directory)
            throw .broken("navctl: replay: cannot start navd: \(error.description)")
        }
        ProcessRegistry.remember(navdPid)
        do {
            try waitUntilServing()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Waits until navd owns its name on the bus, or fails with what its log says.
    private func waitUntilServing() throws(ReplayFailure) {
        let deadline = ProcessExit.monotonicSeconds() + startSeconds
        let connection: Connection
        do {
            connection = try Connection(.address(bus.address))
        } catch {
            throw .broken("navctl: replay: cannot connect to the private bus: \(error.message)")
        }
        defer { connection.close() }
        while ProcessExit.monotonicSeconds() < deadline {
            if let status = exitStatus {
                let said = navdLog
                if status == ExitStatus.usage { throw .badInput("navctl: replay: navd refused its input:\n\(said)") }
                throw .broken("navctl: replay: navd exited with status \(status) before serving:\n\(said)")
            }
            if (try? connection.nameOwner(Navigator.busName)) != nil { return }
            usleep(5_000)
        }
        throw .broken("navctl: replay: navd did not start serving within \(Int(startSeconds)) s:\n\(navdLog)")
    }

    /// navd's exit status once it has exited (reaped by its pid), nil while it runs.
    var exitStatus: Int32? {
        if navdStatus == nil { navdStatus = Spawn.reap(navdPid) }
        return navdStatus
    }

    /// What navd wrote, its last 20 lines.
    var navdLog: String {
        let lines = (FileText.read(logPath) ?? "").split(separator: "\n").suffix(20)
        return lines.joined(separator: "\n")
    }

    /// Stops navd and the bus by their pids (SIGTERM, then SIGKILL after a second) and removes the folder.
    /// Safe to call twice.
    func stop() {
        if stopped { return }
        stopped = true
        if exitStatus == nil {
            kill(navdPid, SIGTERM)
            let deadline = ProcessExit.monotonicSeconds() + 1
            while exitStatus == nil, ProcessExit.monotonicSeconds() < deadline { usleep(5_000) }
            if exitStatus == nil {
                kill(navdPid, SIGKILL)
                navdStatus = Spawn.waitForExit(navdPid)
            }
        }
        ProcessRegistry.forget(navdPid)
        ProcessExit.terminate(bus.pid, grace: 1)
        ProcessRegistry.forget(bus.pid)
        Self.removeFolder(directory)
    }

    /// The navd next to this navctl (as installed and as built), else the first on PATH.
    static func navdExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = own.lastIndex(of: "/") {
                let sibling = String(own[..<slash]) + "/navd"
                if access(sibling, X_OK) == 0 { return sibling }
            }
        }
        for folder in (variable("PATH") ?? "").split(separator: ":") where access("\(folder)/navd", X_OK) == 0 {
            return "\(folder)/navd"
        }
        return "navd"
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func temporaryFolder() -> String {
        guard let folder = variable("TMPDIR"), !folder.isEmpty else { return "/tmp" }
        return folder
    }

    /// Removes the files a replay's folder holds, then the folder.
    private static func removeFolder(_ directory: String) {
        for file in ["bus.conf", "launcher.out", "navd.log"] { unlink("\(directory)/\(file)") }
        rmdir(directory + "/apps")
        rmdir(directory)
    }
}
