import Foundation

/// How hard the reliability suite runs: the short form (part of `make test`) unless
/// `NAVD_RELIABILITY=long` asks for the long one (`make reliability`).
enum ReliabilityMode {
    /// Whether the long form was asked for.
    static var isLong: Bool {
        ProcessInfo.processInfo.environment["NAVD_RELIABILITY"]?.lowercased() == "long"
    }

    /// `short` in the short form, `long` in the long form.
    static func pick<T>(short: T, long: T) -> T { isLong ? long : short }

    /// "short" or "long", for the printed figures.
    static var name: String { isLong ? "long" : "short" }

    /// The seed of a test's random choices: `NAVD_RELIABILITY_SEED` replays a run, otherwise
    /// a fresh one (printed with the figures so that any run can be replayed).
    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["NAVD_RELIABILITY_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// The figures a test prints at its end, one block per test, all lines starting with
/// `reliability:` so that `grep reliability:` collects the whole run's figures.
struct Figures {
    private let test: String
    private var fields: [(String, String)] = []

    /// Figures of the test named `test` (such as `bad-input`).
    init(_ test: String) { self.test = test }

    /// Adds `name=value`.
    mutating func add(_ name: String, _ value: Any) { fields.append((name, "\(value)")) }

    /// Adds a tally as `{A: 3, B: 1}`, largest first.
    mutating func add(_ name: String, tally: [String: Int]) {
        let items = tally.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        fields.append((name, "{" + items.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"))
    }

    /// Prints the block: one line with every field, then nothing else, flushed at once.
    func print() {
        let line = "reliability: \(test) form=\(ReliabilityMode.name) "
            + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        Swift.print(line)
        fflush(nil)  // every stream: the test runner may buffer stdout
    }
}

/// Runs blocking work on a thread of its own and awaits it, so that a test that blocks for
/// minutes on sockets and processes never holds one of the few cooperative-pool threads.
func onThread<T: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Monotonic seconds, for deadlines and measured durations.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A value shared between threads behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
