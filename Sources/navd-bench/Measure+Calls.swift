import DBus

/// The two ways of driving a service: one call at a time, or a window of calls in flight.
enum CallMeasurement {
    /// `calls` calls of `kind`, each sent only after the previous one's reply arrived; one
    /// sample per call (send to reply). `calls` is rounded up to an even number so a push/pop
    /// sequence leaves the stack as it found it.
    static func serial(_ connection: Connection, _ target: CallTarget, _ kind: CallKind, calls: Int) throws -> Samples {
        var samples = Samples()
        let count = calls + calls % 2
        samples.nanoseconds.reserveCapacity(count)
        let start = MonotonicClock.nanoseconds()
        for index in 0..<count {
            let message = try kind.message(index, to: target)
            let sent = MonotonicClock.nanoseconds()
            do {
                _ = try connection.call(message, timeoutMilliseconds: 10_000)
            } catch let error {
                if error.name == DBusErrorName.noReply || error.name == DBusErrorName.disconnected { throw error }
                samples.errors += 1
            }
            samples.nanoseconds.append(MonotonicClock.nanoseconds() - sent)
        }
        samples.elapsedNanoseconds = MonotonicClock.nanoseconds() - start
        return samples
    }

    /// `calls` calls of `kind` with `window` of them always outstanding on one connection:
    /// sends `window`, then one more for each reply as replies arrive. One sample per call
    /// (send to reply, so it includes queueing); ops/s is calls over the loop's wall time.
    static func pipelined(
        _ connection: Connection, _ target: CallTarget, _ kind: CallKind, calls: Int, window: Int = 32
    ) throws -> Samples {
        var samples = Samples()
        let count = calls + calls % 2
        samples.nanoseconds.reserveCapacity(count)
        var sendTimes: [UInt32: UInt64] = [:]
        sendTimes.reserveCapacity(window * 2)
        var sent = 0
        var done = 0
        func sendNext() throws {
            let message = try kind.message(sent, to: target)
            let serial = try connection.send(message)
            sendTimes[serial] = MonotonicClock.nanoseconds()
            sent += 1
        }
        let start = MonotonicClock.nanoseconds()
        while sent < min(window, count) { try sendNext() }
        connection.flush()
        while done < count {
            switch connection.waitForMessages(timeoutMilliseconds: 10_000) {
            case .disconnected: throw BenchError("the bus went away during a pipelined run to \(target.busName)")
            case .timedOut: throw BenchError("no reply from \(target.busName) for 10 s (\(done) of \(count) answered)")
            case .messages, .woken: break
            }
            while let message = connection.popMessage() {
                guard message.kind == .methodReturn || message.kind == .error,
                    let sentAt = sendTimes.removeValue(forKey: message.replySerial)
                else { continue }
                samples.nanoseconds.append(MonotonicClock.nanoseconds() - sentAt)
                if message.kind == .error { samples.errors += 1 }
                done += 1
                if sent < count { try sendNext() }
            }
        }
        samples.elapsedNanoseconds = MonotonicClock.nanoseconds() - start
        return samples
    }
}
