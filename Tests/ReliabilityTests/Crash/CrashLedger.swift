import DBus
import Foundation
import TestSupport

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

    /// A change answered with `revision` and (for Push, Present, Replace) a new screen `id`, or
    /// (for Start) a new flow id, issued from the same counter.
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
        "login", "forgot-password", "modal", "call-progress", "call-success", "call-error", "account", "auth",
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
