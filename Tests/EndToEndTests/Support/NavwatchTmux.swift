import Foundation
import TestSupport

/// A tmux server of the test's own (`tmux -L <private socket>`), running one command in a window of a
/// fixed size; `stop()` kills that server only, never the default one.
final class NavwatchTmux {
    let socket = "navd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let session = "navwatch"

    /// Whether tmux is installed.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `command` in a detached session of `columns`×`rows` under bash, which prints
    /// `[navwatch exited N]` on the restored screen when it ends (tmux 3.3 does not always report the
    /// status of a pane whose process was interrupted).
    init(command: [String], environment: [String: String], columns: Int = 100, rows: Int = 30) throws {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
        // Only what the test sets: `swift test` exports NO_COLOR when its own output is not a terminal.
        let line = "env -u NO_COLOR " + (assignments + command.map(Self.quote)).joined(separator: " ")
            + "; echo \"[navwatch exited $?]\"; sleep 30"
        try tmux(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", "bash -c " + Self.quote(line)])
    }

    /// navwatch (with `arguments`) on `bus`, drawing under `LANG=C`, `TERM=xterm-256color` and `environment`.
    convenience init(navwatchOn bus: PrivateBus, arguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(command: [Products.url("navwatch"), "--address", bus.address] + arguments,
                      environment: ["LANG": "C", "TERM": "xterm-256color"].merging(environment) { $1 })
    }

    deinit { stop() }

    /// Runs a tmux command on the private server and returns its output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run("/usr/bin/tmux", ["-L", socket] + arguments, timeout: 20)
        guard result.status == 0 else {
            throw HarnessError("tmux \(arguments) failed: \(result.stderr)")
        }
        return result.stdout
    }

    /// The visible screen as text (`escapes`: with colour escape sequences).
    func screen(escapes: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", session])) ?? ""
    }

    /// Waits up to `timeout` seconds until the screen satisfies `condition`; returns the last screen seen.
    @discardableResult
    func waitForScreen(timeout: Double = 10, _ condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = screen()
        while !condition(text), Date() < deadline {
            usleep(50_000)
            text = screen()
        }
        return text
    }

    /// Types keys into the pane.
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", session] + keys) }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The exit status navwatch reported on the screen once it has exited, waiting up to `timeout` seconds.
    func exitStatus(timeout: Double = 10) -> Int32? {
        let screen = waitForScreen(timeout: timeout) { $0.contains("[navwatch exited ") }
        guard let range = screen.range(of: "[navwatch exited ") else { return nil }
        return Int32(screen[range.upperBound...].prefix { $0.isNumber })
    }

    /// The pid of the pane's child process whose command is `name` (bash's child), or nil.
    func commandPID(named name: String) -> pid_t? {
        guard let shell = Int32((try? tmux(["display-message", "-p", "-t", session, "#{pane_pid}"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        for word in children.split(separator: " ") {
            guard let pid = pid_t(word) else { continue }
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if command.trimmingCharacters(in: .whitespacesAndNewlines) == name { return pid }
        }
        return nil
    }

    /// Kills this test's tmux server (by its private socket).
    func stop() {
        _ = try? ChildProcess.run("/usr/bin/tmux", ["-L", socket, "kill-server"], timeout: 10)
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
