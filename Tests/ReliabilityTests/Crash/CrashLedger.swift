import DBus
import Foundation

/// What the clients were told, shared between their threads: every answered revision of a
/// real change, the highest revision any answer carried, and every screen id ever returned or
/// seen, so that a reused id or a lost revision is caught.
final class CrashLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var answeredChanges: [UInt64: String] = [:]
    private var roundChanges: [UInt64] = []
    private var highestAnswered: UInt64 = 0
    private var idsSeen: Set<String> = []
    private var violations: [String] = []
    private var errorTally: [String: Int] = [:]
    private var callsAnswered = 0

    /// A change answered with `revision` and (for Push, Present, Replace) a new screen `id`.
    func recordChange(_ method: String, revision: UInt64, newId: String?) {
        lock.withLock {
            callsAnswered += 1
            if let other = answeredChanges[revision] {
                violations.append("revision \(revision) answered twice: to \(other) and to \(method)")
            }
            answeredChanges[revision] = method
            roundChanges.append(revision)
            highestAnswered = max(highestAnswered, revision)
            if let newId {
                if newId.isEmpty || Self.routeNames.contains(newId) { violations.append("\(method) returned the id '\(newId)': empty or a route name") }
                if idsSeen.contains(newId) { violations.append("\(method) returned id '\(newId)', which was seen before") }
                idsSeen.insert(newId)
            }
        }
    }

    /// The demo graph's routes: no id may equal one.
    static let routeNames: Set<String> = [
        "red", "orange", "yellow", "green", "teal", "blue", "purple", "news-list", "news-item", "profile", "settings",
        "login", "forgot-password", "modal",
    ]

    /// A success that may have been a no-op: only its revision counts, as a lower bound.
    func recordAnswer(revision: UInt64) {
        lock.withLock {
            callsAnswered += 1
            highestAnswered = max(highestAnswered, revision)
        }
    }

    /// An error reply (kept by name for the figures).
    func recordError(_ name: String) {
        lock.withLock { errorTally[Contract.shortErrorName(name), default: 0] += 1 }
    }

    /// Ids present in a tree read from navd: legitimately there, never to be returned as new.
    func recordSeen(ids: [String]) {
        lock.withLock { idsSeen.formUnion(ids) }
    }

    /// A failed check.
    func recordViolation(_ text: String) {
        lock.withLock { violations.append(text) }
    }

    /// The answered changes of the round now ending (and starts a new round).
    func takeRoundChanges() -> [UInt64] {
        lock.withLock {
            defer { roundChanges.removeAll() }
            return roundChanges
        }
    }

    /// The highest revision any answer carried.
    var highest: UInt64 { lock.withLock { highestAnswered } }
    /// How many changes were answered in all.
    var changeCount: Int { lock.withLock { answeredChanges.count } }
    /// How many calls were answered with success.
    var answeredCount: Int { lock.withLock { callsAnswered } }
    /// The failed checks.
    var failures: [String] { lock.withLock { violations } }
    /// Error replies by name.
    var errors: [String: Int] { lock.withLock { errorTally } }
}

/// A client thread that changes the tree as fast as navd answers, until told to stop or
/// until its calls fail because navd is gone.
final class ChangingClient: @unchecked Sendable {
    private let address: String
    private let ledger: CrashLedger
    private var rng: SeededGenerator
    private let stopLock = NSLock()
    private var stopRequested = false
    private var joined = false
    private let done = DispatchSemaphore(value: 0)

    init(address: String, ledger: CrashLedger, rng: SeededGenerator) {
        self.address = address
        self.ledger = ledger
        self.rng = rng
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "ChangingClient"
        thread.start()
    }

    /// Asks the client to stop after its current call.
    func requestStop() { stopLock.withLock { stopRequested = true } }

    /// Waits up to `timeout` seconds for the thread to end; false if it did not. Safe to call again.
    func join(timeout: Double) -> Bool {
        if stopLock.withLock({ joined }) { return true }
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        stopLock.withLock { joined = true }
        return true
    }

    private var shouldStop: Bool { stopLock.withLock { stopRequested } }

    private func run() {
        guard let connection = try? Connection(.address(address)) else { return }
        defer { connection.close() }
        let rainbow = ["orange", "yellow", "green", "teal", "blue", "purple"]
        while !shouldStop {
            let roll = Int.random(in: 0..<100, using: &rng)
            let method: String
            var arguments: [DBusValue] = []
            var returnsId = false
            var alwaysChanges = true
            switch roll {
            case 0..<30: method = "Push"; arguments = [.string(rng.pick(rainbow)), Contract.noParams]; returnsId = true
            case 30..<50: method = "Pop"
            case 50..<58: method = "Present"; arguments = [.string("modal"), Contract.noParams, .string(rng.pick(["sheet", "cover"]))]; returnsId = true
            case 58..<66: method = "Dismiss"
            case 66..<74: method = "Back"
            case 74..<88:
                method = "Apply"
                let ops = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Contract.op("push", [("route", .string(rng.pick(rainbow)))]) }
                arguments = [Contract.ops(ops), .uint64(0)]
            case 88..<92: method = "SelectTab"; arguments = [.string(rng.pick(["rainbow", "news", "profile"]))]; alwaysChanges = false
            case 92..<95: method = "Undo"
            case 95..<97: method = "Redo"
            default: method = "PopToRoot"; alwaysChanges = false
            }
            do {
                let values = try connection.navd(method, arguments, timeoutMilliseconds: 5_000)
                guard let revision = values.first?.uint64Value else {
                    ledger.recordViolation("\(method) answered without a revision: \(values)")
                    continue
                }
                if alwaysChanges {
                    ledger.recordChange(method, revision: revision, newId: returnsId ? values.dropFirst().first?.stringValue : nil)
                } else {
                    ledger.recordAnswer(revision: revision)
                }
            } catch let error as DBusError {
                ledger.recordError(error.name)
                // navd is gone (killed): the bus answers for it; stop until the next round.
                if !error.name.hasPrefix(Contract.errorPrefix) { return }
            } catch {
                return
            }
        }
    }
}
