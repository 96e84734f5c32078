extension BenchRun {
    /// Each subject one call at a time (its key `NAME.serial`) and 32 in flight with twice the calls
    /// (`NAME.inflight`), interleaved in one navd-load run per round: what the latency and throughput
    /// figures of calls, access and apps are made of. Gives the summary of a key (an empty one for a key
    /// with no samples).
    func serialAndInflight(_ subjects: [(String, LoadTarget)]) throws -> (String) -> Summary {
        func keyed(_ suffix: String) -> [(String, LoadTarget)] { subjects.map { ($0.0 + suffix, $0.1) } }
        let results = try interleave([
            loadCase(.serial, keyed(".serial"), calls: plan.callsPerRound, warmUp: plan.warmUpCalls),
            loadCase(.inflight, keyed(".inflight"), calls: plan.callsPerRound * 2, warmUp: plan.warmUpCalls),
        ])
        return { results.summary(of: $0) }
    }
}

extension Dictionary where Key == String, Value == Samples {
    /// The summary of `key`'s samples; an empty one when the run has none under that key.
    func summary(of key: String) -> Summary { self[key]?.summary() ?? Samples().summary() }
}
