import DBus
import Foundation

/// Runs an `ObjectServer` on a thread of its own with the single-thread loop the daemon uses:
/// pop every message already read, answer the batch, send replies, wait for more.
///
/// Test code reaches the server only through `perform`, which runs a closure on the loop's
/// thread, so the server is never touched from two threads.
public final class ServiceLoop: @unchecked Sendable {
    /// The connection the loop owns.
    public let connection: Connection
    /// The server it dispatches to (touch it only inside `perform`, or before `start()`).
    public let server: ObjectServer

    private let lock = NSLock()
    private var running = true
    private var pending: [() -> Void] = []
    private let finished = DispatchSemaphore(value: 0)
    /// The loop's thread while it runs. Its closure holds this loop, so the loop lets go of
    /// it when `run()` ends: keeping it would make a cycle that leaks the loop, its
    /// connection and its server (LeakSanitizer found one per test fixture).
    private var thread: Thread?
    private var handledCount = 0

    /// A loop for `server` on `connection`; call `start()`.
    public init(connection: Connection, server: ObjectServer) {
        self.connection = connection
        self.server = server
    }

    deinit {
        stop()
    }

    /// Starts the loop's thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ServiceLoop"
        lock.withLock { self.thread = thread }
        thread.start()
    }

    /// Runs `work` on the loop's thread between batches and waits for it.
    public func perform<T>(_ work: @escaping () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        let done = DispatchSemaphore(value: 0)
        lock.withLock {
            pending.append {
                result = Result { try work() }
                done.signal()
            }
        }
        connection.wake()
        guard done.wait(timeout: .now() + 10) == .success, let result else {
            throw HarnessError("the service loop did not run the work within 10 s")
        }
        return try result.get()
    }

    /// How many messages the loop has handled.
    public var messagesHandled: Int { lock.withLock { handledCount } }

    /// Stops the loop (through `wake()`) and waits for its thread to finish. Safe to call twice.
    public func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning, let thread = lock.withLock({ thread }) else { return }
        // Called on the loop's own thread (its owner was released there): don't wait for it.
        if thread == Thread.current { return }
        connection.wake()
        _ = finished.wait(timeout: .now() + 10)
    }

    private func run() {
        var batch: [Message] = []
        while lock.withLock({ running }) {
            runPendingWork()
            while let message = connection.popMessage() { batch.append(message) }
            if batch.isEmpty {
                if connection.waitForMessages(timeoutMilliseconds: 1_000) == .disconnected {
                    usleep(10_000)  // the bus is gone; keep serving `perform` until stopped
                }
                continue
            }
            for message in batch {
                if let reply = server.handle(message) { _ = try? connection.send(reply) }
            }
            lock.withLock { handledCount += batch.count }
            batch.removeAll()
        }
        connection.flush()
        lock.withLock { thread = nil }
        finished.signal()
    }

    /// Runs the queued `perform` closures and lets go of them at once: they may hold the
    /// last reference to whatever owns this loop.
    private func runPendingWork() {
        let work = lock.withLock {
            defer { pending.removeAll() }
            return pending
        }
        for item in work { item() }
    }
}
