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
                _ = try connection.call(message, timeoutMilliseconds: callTimeoutMilliseconds)
            } catch let error {
                if error.name == DBusErrorName.noReply || error.name == DBusErrorName.disconnected { throw error }
                samples.errors += 1
            }
            samples.nanoseconds.append(MonotonicClock.nanoseconds() - sent)
        }
        samples.elapsedNanoseconds = MonotonicClock.nanoseconds() - start
        return samples
    }

    /// One call at a time to each subject in turn (in a new random order every push/pop pair),
    /// `calls` calls each, so that whatever else the machine does, and whichever call came
    /// just before, hits every subject alike. Each subject keeps its own push/pop alternation.
    /// One `Samples` per subject, in order.
    static func serialInterleaved(_ subjects: [(Connection, CallTarget, CallKind)], calls: Int) throws -> [Samples] {
        var results = Array(repeating: Samples(), count: subjects.count)
        let count = calls + calls % 2
        for index in results.indices { results[index].nanoseconds.reserveCapacity(count) }
        var generator = SplitMix(seed: 7)
        var order = Array(subjects.indices)
        for index in 0..<count {
            if index % 2 == 0 { order.shuffle(using: &generator) }
            for which in order {
                let (connection, target, kind) = subjects[which]
                let message = try kind.message(index, to: target)
                let sent = MonotonicClock.nanoseconds()
                do {
                    _ = try connection.call(message, timeoutMilliseconds: callTimeoutMilliseconds)
                } catch let error {
                    if error.name == DBusErrorName.noReply || error.name == DBusErrorName.disconnected { throw error }
                    results[which].errors += 1
                }
                let elapsed = MonotonicClock.nanoseconds() - sent
                results[which].nanoseconds.append(elapsed)
                results[which].elapsedNanoseconds += elapsed
            }
        }
        return results
    }

    /// Each subject in turn (in a new random order every chunk) runs `chunk` pipelined calls,
    /// until each made `calls`: drift is shared, and the ramp up and down of the window costs
    /// every subject alike. One `Samples` per subject, in order.
    static func pipelinedInterleaved(
        _ subjects: [(Connection, CallTarget, CallKind)], calls: Int, chunk: Int = 256
    ) throws -> [Samples] {
        var results = Array(repeating: Samples(), count: subjects.count)
        var generator = SplitMix(seed: 11)
        var order = Array(subjects.indices)
        var made = 0
        while made < calls {
            let count = min(chunk, calls - made)
            order.shuffle(using: &generator)
            for which in order {
                let (connection, target, kind) = subjects[which]
                results[which].merge(try pipelined(connection, target, kind, calls: count))
            }
            made += count + count % 2
        }
        return results
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
            switch connection.waitForMessages(timeoutMilliseconds: callTimeoutMilliseconds) {
            case .disconnected: throw BenchError("the bus went away during a pipelined run to \(target.busName)")
            case .timedOut: throw BenchError("no reply from \(target.busName) for \(callTimeoutMilliseconds / 1000) s (\(done) of \(count) answered)")
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

/// A small deterministic random source (SplitMix64), so runs shuffle alike.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    /// Starts from `seed`.
    init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// How long one call may take before the run gives up on the service: long, because a stall
/// (a snapshot of a large state, say) is a finding to report, not a reason to stop.
let callTimeoutMilliseconds: Int32 = 120_000
