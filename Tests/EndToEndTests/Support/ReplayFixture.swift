import Foundation
import NavdClient
import TestSupport
import Testing

/// A navd under a route file of its own (the demo graph's text, in a folder of the fixture's), for sessions
/// that are recorded (`navctl export`) and replayed (`navctl replay`); everything stopped by pid and removed
/// when released.
final class RecordingFixture: OnPrivateBus {
    let bus: PrivateBus
    let navd: NavdProcess
    /// The fixture's folder: the route file, recordings.
    let folder: String
    /// The route file navd serves.
    var routesFile: String { folder + "/routes.yaml" }
    /// The demo graph's text, what the route file holds at first.
    let demo: String

    init() throws {
        folder = TemporaryDirectory.make("navd-test-replay")
        demo = try ChildProcess.run(Products.url("navd"), ["--print-default-routes"]).stdout
        try demo.write(toFile: folder + "/routes.yaml", atomically: true, encoding: .utf8)
        bus = try PrivateBus()
        navd = try NavdProcess.started(bus: bus, extraArguments: ["--routes", folder + "/routes.yaml"])
    }

    deinit {
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(folder)
    }

    /// A client in the test process.
    func client() throws -> NavigatorClient {
        try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 5_000)
    }

    /// The demo graph's text with `edit` applied, written to `FOLDER/NAME`; returns the path.
    @discardableResult
    func writeRoutes(_ name: String, _ edit: (String) -> String) throws -> String {
        let path = folder + "/" + name
        try edit(demo).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `navctl export -o FOLDER/NAME` (with `extra` options); returns the recording's path.
    func export(_ name: String, _ extra: String...) throws -> String {
        let path = folder + "/" + name
        let result = try navctl(["export", "-o", path] + extra)
        if result.status != 0 { throw HarnessError("navctl export failed: \(result)") }
        return path
    }

    /// `navctl replay ARGS…`, with the environment's session bus pointed at `sessionBus` (nothing else of the
    /// fixture's bus is given).
    func replay(_ arguments: String..., sessionBus: String = "unix:path=/nonexistent/navd-test-no-bus") throws -> CommandResult {
        try replay(arguments, sessionBus: sessionBus)
    }

    /// `replay(_:sessionBus:)` with the arguments as a list.
    func replay(_ arguments: [String], sessionBus: String = "unix:path=/nonexistent/navd-test-no-bus") throws -> CommandResult {
        try runNavctl(["replay"] + arguments, bus: nil, environment: ["DBUS_SESSION_BUS_ADDRESS": sessionBus])
    }

    /// The number of changes navd keeps (what an export from 0 records).
    func changeCount() throws -> Int { try client().send(.getChanges(from: 0, limit: .max)).count }
}

/// The demo graph with `yellow` requiring `signed-in` (false by default): a reload repairs yellow and what is
/// above it away, as a `reconcile` revision.
func yellowNeedsSigningIn(_ text: String) -> String {
    text.replacingOccurrences(
        of: "  yellow: { title: Yellow, hints: { color: yellow, index: 2 }, on:",
        with: "  yellow: { title: Yellow, hints: { color: yellow, index: 2 }, requires: [signed-in], on:")
}

/// Processes whose parent is `parent` and whose name (`/proc/PID/comm`) is `name`.
func childProcesses(of parent: pid_t, named name: String) -> [pid_t] {
    processes { pid, stat in
        guard let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(") else { return false }
        let comm = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return comm == name && fields.count > 1 && pid_t(fields[1]) == parent
    }
}

/// Processes whose command line contains `text`.
func processes(withCommandLineContaining text: String) -> [pid_t] {
    processes { pid, _ in
        let line = FileText.read("/proc/\(pid)/cmdline")?.replacingOccurrences(of: "\0", with: " ") ?? ""
        return line.contains(text)
    }
}

private func processes(where matches: (pid_t, String) -> Bool) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
        guard let stat = FileText.read("/proc/\(pid)/stat") else { return false }
        return !ProcessExit.hasExited(pid) && matches(pid, stat)
    }
}

/// Polls `body` every 10 ms for up to `timeout` seconds until it gives a value.
func eventually<Value>(timeout: Double = 10, _ body: () -> Value?) -> Value? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if let value = body() { return value }
        usleep(10_000)
    }
    return body()
}
