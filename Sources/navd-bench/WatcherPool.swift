import DBus
import Foundation

/// `count` watcher connections, each with a match rule on `StackChanged` from every sender
/// given, each read by a thread of its own, as separate client processes would.
final class WatcherPool: @unchecked Sendable {
    private let connections: [Connection]
    private let condition = NSCondition()
    private var arrivals = 0
    private var lastArrival: UInt64 = 0
    private var running = true
    private var threadsRunning = 0

    /// Connects the watchers and subscribes each to `StackChanged` from `senders`.
    init(address: String, count: Int, senders: [String]) throws {
        var made: [Connection] = []
        for _ in 0..<count {
            let connection = try Connection(.address(address))
            for sender in senders {
                try connection.addMatch("type='signal',sender='\(sender)',member='StackChanged'")
            }
            made.append(connection)
        }
        connections = made
        for connection in connections {
            condition.lock()
            threadsRunning += 1
            condition.unlock()
            let thread = Thread { [self] in watch(connection) }
            thread.start()
        }
    }

    private func watch(_ connection: Connection) {
        while true {
            condition.lock()
            let keepGoing = running
            condition.unlock()
            if !keepGoing { break }
            let result = connection.waitForMessages(timeoutMilliseconds: 200)
            if result == .disconnected { break }
            while let message = connection.popMessage() {
                guard message.kind == .signal, message.member == "StackChanged" else { continue }
                let now = MonotonicClock.nanoseconds()
                condition.lock()
                arrivals += 1
                lastArrival = max(lastArrival, now)
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        threadsRunning -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Forgets earlier arrivals; call before sending the call whose signal is timed.
    func reset() {
        condition.lock()
        arrivals = 0
        lastArrival = 0
        condition.unlock()
    }

    /// Waits until every watcher holds one signal since `reset()`; returns the time the last
    /// one got it, or nil after `seconds`.
    func waitForEveryWatcher(seconds: Double) -> UInt64? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while arrivals < connections.count {
            if !condition.wait(until: deadline) { return nil }
        }
        return lastArrival
    }

    /// Stops the threads and closes the connections.
    func stop() {
        condition.lock()
        running = false
        condition.unlock()
        for connection in connections { connection.wake() }
        condition.lock()
        let deadline = Date().addingTimeInterval(5)
        while threadsRunning > 0 && condition.wait(until: deadline) {}
        condition.unlock()
        for connection in connections { connection.close() }
    }
}

extension CallMeasurement {
    /// `calls` push/pop calls one at a time to each of `targets` in turn (random order per pair);
    /// each sample is from sending the call to the last watcher of `pool` holding its
    /// `StackChanged`. One `Samples` per target, in order.
    static func fanOut(_ connection: Connection, _ targets: [CallTarget], pool: WatcherPool, calls: Int) throws -> [Samples] {
        var results = Array(repeating: Samples(), count: targets.count)
        let count = calls + calls % 2
        var generator = SplitMix(seed: 5)
        var order = Array(targets.indices)
        for index in 0..<count {
            if index % 2 == 0 { order.shuffle(using: &generator) }
            for which in order {
                let target = targets[which]
                let message = try CallKind.pushPop.message(index, to: target)
                pool.reset()
                let sent = MonotonicClock.nanoseconds()
                _ = try connection.call(message, timeoutMilliseconds: callTimeoutMilliseconds)
                guard let last = pool.waitForEveryWatcher(seconds: 10) else {
                    throw BenchError("the watchers did not all get StackChanged from \(target.busName) within 10 s")
                }
                results[which].nanoseconds.append(last - sent)
                results[which].elapsedNanoseconds += last - sent
            }
        }
        return results
    }
}
