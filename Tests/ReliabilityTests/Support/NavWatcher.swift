import Foundation
import TestSupport

/// One line of `navwatch --json`.
struct WatchLine: Sendable {
    /// The revision shown, nil for an event line.
    var revision: UInt64?
    /// The cause shown (`state`, `restore`, `push`, …), nil for an event line.
    var cause: String?
    /// Whether this is the `{"event":"gone"}` marker.
    var isGone: Bool
    /// When the suite read the line (monotonic seconds): an upper bound of when it was printed.
    var seenAt: Double
}

/// A `navwatch --address … --json` child whose stdout goes to a file the suite reads
/// incrementally, stopped by pid.
final class NavWatcher: @unchecked Sendable {
    private let child: ChildProcess
    private var handle: FileHandle?
    private var partial = Data()
    private let lock = NSLock()
    private var parsed: [WatchLine] = []
    /// Lines that were not JSON of the expected shape.
    private(set) var malformed: [String] = []

    /// navwatch's path in the build directory.
    static var executable: String { Products.url("navwatch") }

    /// Whether navwatch has been built.
    static var isBuilt: Bool { Products.exists("navwatch") }

    /// Starts navwatch on `address`.
    init(address: String) throws {
        child = try ChildProcess(launching: Self.executable, arguments: ["--address", address, "--json"])
        handle = FileHandle(forReadingAtPath: child.stdoutPath)
    }

    deinit {
        stop()
    }

    /// navwatch's pid.
    var pid: pid_t { child.pid }

    /// Whether navwatch still runs.
    var isRunning: Bool { !ProcessExit.hasExited(child.pid) }

    /// navwatch's stderr, for failure messages.
    var stderr: String { child.stderrText }

    /// Stops navwatch by pid (SIGTERM, then SIGKILL).
    func stop() {
        child.stop(timeout: 3)
    }

    /// Every line read so far (reading what is new first).
    func lines() -> [WatchLine] {
        lock.withLock {
            readNew()
            return parsed
        }
    }

    /// Polls every 2 ms until a line after the first `after` lines satisfies `condition`;
    /// returns that line, or nil after `timeout` seconds.
    func waitForLine(after: Int, timeout: Double, _ condition: (WatchLine) -> Bool) -> WatchLine? {
        let deadline = monotonicSeconds() + timeout
        while true {
            let all = lines()
            if all.count > after, let line = all[after...].first(where: condition) { return line }
            if monotonicSeconds() > deadline { return nil }
            usleep(2_000)
        }
    }

    /// What is wrong with what navwatch showed by the end of a run whose last revision is `final`:
    /// not ending on it, revisions out of order, lines that are not JSON, an exit.
    func problemsAtTheEnd(final: UInt64) -> [String] {
        var problems: [String] = []
        if waitForLine(after: 0, timeout: 5, { $0.revision == final }) == nil || lines().last(where: { $0.revision != nil })?.revision != final {
            problems.append("navwatch \(pid) did not end on revision \(final): last \(lines().last.map { "\($0)" } ?? "none")")
        }
        problems += orderViolations().prefix(5).map { "navwatch \(pid) out of order: \($0)" }
        problems += malformed.prefix(3).map { "navwatch \(pid) printed a line that is not JSON: \($0.prefix(200))" }
        if !isRunning { problems.append("navwatch \(pid) exited: \(stderr.suffix(500))") }
        return problems
    }

    /// Revisions shown out of order: a revision lower than the one before, or the same one
    /// again under a change's cause (only `state`, `start` and `restore` lines may repeat one).
    func orderViolations() -> [String] {
        var violations: [String] = []
        var previous: WatchLine?
        for line in lines() {
            guard let revision = line.revision else { continue }
            if let previous, let before = previous.revision {
                let resync = ["state", "start", "restore"].contains(line.cause ?? "")
                if revision < before || (revision == before && !resync) {
                    violations.append("\(before) (\(previous.cause ?? "")) then \(revision) (\(line.cause ?? ""))")
                }
            }
            previous = line
        }
        return violations
    }

    private func readNew() {
        guard let handle else { return }
        let data = handle.readDataToEndOfFile()
        if data.isEmpty { return }
        partial.append(data)
        let now = monotonicSeconds()
        while let newline = partial.firstIndex(of: 0x0A) {
            let lineData = partial[partial.startIndex..<newline]
            partial.removeSubrange(partial.startIndex...newline)
            guard !lineData.isEmpty else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(lineData)) as? [String: Any] else {
                malformed.append(String(decoding: lineData, as: UTF8.self))
                continue
            }
            if let event = object["event"] as? String {
                parsed.append(WatchLine(revision: nil, cause: nil, isGone: event == "gone", seenAt: now))
            } else if let number = object["revision"] as? NSNumber {
                parsed.append(WatchLine(revision: number.uint64Value, cause: object["cause"] as? String, isGone: false, seenAt: now))
            } else {
                malformed.append(String(decoding: lineData, as: UTF8.self))
            }
        }
    }
}
