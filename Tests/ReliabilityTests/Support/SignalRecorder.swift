import DBus
import Foundation
import TestSupport

/// Subscribes to navd's `StackChanged` on a connection of its own and records, per revision,
/// the tab and path it announced: what a restarted navd must show for that revision.
final class SignalRecorder: @unchecked Sendable {
    /// One `StackChanged`: its revision, cause, tab and path (the path as sent, to compare with GetState's).
    struct Announcement: Sendable {
        var revision: UInt64
        var cause, tab: String
        var path: DBusValue
        /// The unique bus name of the navd that sent it: a start-up announcement and a flow's `Start`
        /// share the cause `start`, so only the sender tells a restarted navd's announcement apart.
        var sender: String
    }

    private let connection: Connection
    private let lock = NSLock()
    private var byRevision: [UInt64: Announcement] = [:]
    private var all: [Announcement] = []
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    /// Connects, adds the match rule and starts the reading thread.
    init(address: String) throws {
        connection = try Connection(.address(address))
        try connection.addMatch("type='signal',sender='\(Contract.busName)',interface='\(Contract.interface)',member='StackChanged'")
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "SignalRecorder"
        thread.start()
    }

    deinit { stop() }

    /// Stops the thread and closes the connection. Safe to call twice.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        connection.wake()
        _ = finished.wait(timeout: .now() + 5)
        connection.close()
    }

    /// The announcement of the change that made `revision` (start-up announcements left out).
    func announcement(of revision: UInt64) -> Announcement? { lock.withLock { byRevision[revision] } }

    /// Every announcement in arrival order.
    var announcements: [Announcement] { lock.withLock { all } }

    private func run() {
        while lock.withLock({ running }) {
            while let message = connection.popMessage() {
                guard message.kind == .signal, message.member == "StackChanged", let body = try? message.body(), body.count == 4,
                    let revision = body[0].uint64Value, let cause = body[1].stringValue, let tab = body[2].stringValue
                else { continue }
                let announcement = Announcement(
                    revision: revision, cause: cause, tab: tab, path: body[3], sender: message.sender ?? "")
                lock.withLock {
                    // A start-up announcement repeats the last change's revision: keep the change's.
                    if cause != "restore" && cause != "start" { byRevision[revision] = announcement }
                    all.append(announcement)
                }
            }
            if connection.waitForMessages(timeoutMilliseconds: 500) == .disconnected { return }
        }
    }
}
