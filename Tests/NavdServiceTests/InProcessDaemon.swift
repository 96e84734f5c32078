import DBus
import Foundation
import Logging
import NavigatorProtocol
import Navigation
import RouteFiles
import TestSupport
@testable import NavdService

/// A `NavigatorDaemon` on a private bus inside the test process, its loop on a thread of its own,
/// and a client connection that receives its signals. Calls can be queued before the loop starts,
/// so that they are all read as one batch.
final class InProcessDaemon: @unchecked Sendable {
    let bus: PrivateBus
    let daemon: NavigatorDaemon
    let client: Connection
    let directory: String
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    /// A daemon with the demo graph and a state directory of its own.
    init(_ name: String) throws {
        bus = try PrivateBus()
        directory = NSTemporaryDirectory() + "navd-inprocess-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        let options = ServiceOptions(bus: .address(bus.address), graph: .demo, stateDirectory: directory)
        daemon = try NavigatorDaemon(options: options, logger: Logger(label: "navd-test"))
        client = try Connection(.address(bus.address))
        try client.addMatch(Navigator.stackChangedRule)
        try client.addMatch(Navigator.propertiesChangedRule)
        try client.addMatch(Navigator.flowFinishedRule)
    }

    /// Sends `method` without waiting; returns the call's serial.
    @discardableResult
    func send(_ method: NavigatorMethod, _ arguments: [DBusValue] = []) throws -> UInt32 {
        try client.send(Navigator.call(method, arguments))
    }

    /// Waits until the bus has handled everything this client sent (a round trip to the bus itself),
    /// so that calls sent before are in the daemon's socket.
    func settle() throws {
        _ = try client.nameOwner(Navigator.busName)
    }

    /// Starts the daemon's loop (which first sends the start-up StackChanged).
    func start() {
        started = true
        Thread.detachNewThread { [self] in
            _ = daemon.run()
            finished.signal()
        }
    }

    /// The next `count` messages for the client that are replies or navd's signals, in order.
    func receive(_ count: Int) throws -> [Message] {
        var messages: [Message] = []
        let deadline = MonotonicClock.milliseconds() + 30_000
        while messages.count < count {
            if let message = client.popMessage() {
                if message.kind == .methodReturn || message.kind == .error
                    || (message.kind == .signal && message.path == Navigator.objectPath.rawValue) {
                    messages.append(message)
                }
                continue
            }
            guard MonotonicClock.milliseconds() < deadline else {
                throw HarnessError("only \(messages.count) of \(count) messages arrived")
            }
            _ = client.waitForMessages(timeoutMilliseconds: 1000)
        }
        return messages
    }

    /// Whether the loop returned within `seconds`.
    func waitForExit(seconds: Int) -> Bool {
        guard finished.wait(timeout: .now() + .seconds(seconds)) == .success else { return false }
        started = false
        return true
    }

    /// Stops the loop through `requestStop()`, waits for it, and removes everything.
    func stop() {
        if started {
            daemon.requestStop()
            finished.wait()
        }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension Message {
    /// A short label for order checks: `reply`, `error:Name`, or the signal's member.
    var label: String {
        switch kind {
        case .methodReturn: "reply"
        case .error: "error:" + (errorName.flatMap(NavigatorErrorName.init(fullName:))?.rawValue ?? errorName ?? "?")
        default: member ?? "?"
        }
    }
}
