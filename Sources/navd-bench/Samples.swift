/// Durations collected for one figure over every round, and the wall time they took.
struct Samples {
    /// One duration per call (or per process run), in nanoseconds.
    var nanoseconds: [UInt64] = []
    /// The wall time of the timed loops, all rounds together, in nanoseconds.
    var elapsedNanoseconds: UInt64 = 0
    /// Calls that got an error reply (they are timed like the others, and reported).
    var errors = 0

    /// Adds another round's samples.
    mutating func merge(_ other: Samples) {
        nanoseconds += other.nanoseconds
        elapsedNanoseconds += other.elapsedNanoseconds
        errors += other.errors
    }

    /// The first call of every pair (the Push or Send of Push/Pop, Send/Pop), when every
    /// round's samples start with a pair's first call (navd-load's counts are even); the elapsed
    /// time is left out, so its calls per second mean nothing.
    var firstOfPairs: Samples {
        Samples(nanoseconds: nanoseconds.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), elapsedNanoseconds: 0, errors: errors)
    }

    /// p50, p99 and mean in `unit` nanoseconds each, and calls per second over the elapsed time.
    func summary(unitNanoseconds: Double = 1000) -> Summary {
        let sorted = nanoseconds.sorted()
        guard !sorted.isEmpty else { return Summary(p50: 0, p99: 0, mean: 0, opsPerSecond: 0, count: 0, errors: errors) }
        func percentile(_ fraction: Double) -> Double {
            let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
            return Double(sorted[max(0, index)]) / unitNanoseconds
        }
        let total = sorted.reduce(0.0) { $0 + Double($1) }
        let seconds = Double(elapsedNanoseconds) / 1e9
        return Summary(
            p50: percentile(0.50), p99: percentile(0.99), mean: total / Double(sorted.count) / unitNanoseconds,
            opsPerSecond: seconds > 0 ? Double(sorted.count) / seconds : 0, count: sorted.count, errors: errors)
    }
}

/// The statistics of one figure.
struct Summary: Codable {
    /// Median, 99th percentile and arithmetic mean.
    var p50, p99, mean: Double
    /// Completed calls per second of wall time.
    var opsPerSecond: Double
    /// How many samples, and how many of them were error replies.
    var count, errors: Int
}
