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

    /// Empty params, for the calls the tests queue. Computed, not stored: a `DBusValue` kept in a
    /// global is held through a pointer LeakSanitizer does not recognise (the enum's case in its
    /// spare bits), and was reported as leaked.
    static var noParams: DBusValue { [String: ParamValue]().dbusValue }

    /// A daemon with the demo graph and a state directory of its own; with `apps` (name → route
    /// file), those apps too, from a folder inside that directory, and the client hears every
    /// navigator's signals.
    init(_ name: String, apps: [String: String] = [:]) throws {
        bus = try PrivateBus()
        directory = NSTemporaryDirectory() + "navd-inprocess-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        var appsDirectory: String?
        if !apps.isEmpty {
            let folder = directory + "/apps-routes"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (app, text) in apps { try text.write(toFile: folder + "/\(app).yaml", atomically: true, encoding: .utf8) }
            appsDirectory = folder
        }
        let options = ServiceOptions(
            bus: .address(bus.address), graph: .demo, stateDirectory: directory, appsDirectory: appsDirectory)
        daemon = try NavigatorDaemon(options: options, logger: Logger(label: "navd-test"))
        client = try Connection(.address(bus.address))
        if apps.isEmpty {
            try client.addMatch(Navigator.stackChangedRule)
            try client.addMatch(Navigator.propertiesChangedRule)
            try client.addMatch(Navigator.flowFinishedRule)
        } else {
            try client.addMatch(.everyNavdSignal)
        }
    }

    /// Sends `method` to `app`'s object (nil: the default navigator) without waiting; returns the
    /// call's serial.
    @discardableResult
    func send(_ method: NavigatorMethod, _ arguments: [DBusValue] = [], to app: String? = nil) throws -> UInt32 {
        try client.send(Navigator.call(method, arguments, path: Navigator.objectPath(app: app)!))
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

    /// The next `count` messages for the client that are replies or the default navigator's
    /// signals, in order.
    func receive(_ count: Int) throws -> [Message] {
        try receiveLabeled(count, fromApps: false).map(\.message)
    }

    /// The next `count` replies, errors and signals of every navigator, each as `label@app`
    /// (`main` for the default navigator; replies and errors as their plain label), in order.
    func receiveLabeled(_ count: Int, fromApps: Bool = true) throws -> [(label: String, message: Message)] {
        var messages: [(label: String, message: Message)] = []
        let deadline = MonotonicClock.milliseconds() + 30_000
        while messages.count < count {
            if let message = client.popMessage() {
                if message.kind == .methodReturn || message.kind == .error {
                    messages.append((message.label, message))
                } else if message.kind == .signal, let path = message.path,
                          path == Navigator.objectPath.rawValue || (fromApps && Navigator.appName(ofPath: path) != nil) {
                    messages.append(("\(message.label)@\(Navigator.appName(ofPath: path) ?? "main")", message))
                }
                continue
            }
            guard MonotonicClock.milliseconds() < deadline else {
                throw HarnessError("only \(messages.count) of \(count) messages arrived: \(messages.map(\.label))")
            }
            _ = client.waitForMessages(timeoutMilliseconds: 1000)
        }
        return messages
    }

    /// The revisions in the journal of `app`'s store (nil: the default navigator's).
    func journal(_ app: String?) throws -> [UInt64] {
        let navigator = app.map { daemon.apps[$0] } ?? daemon.main
        return try navigator?.store?.load().journal.map(\.revision) ?? []
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
