import DBus

extension BenchRun {
    /// Items 1, 2, 3 and 8: Ping and the C floor, navd and navd --ephemeral, one call at a
    /// time (interleaved call by call) and 32 in flight (interleaved in chunks of 256), over the rounds.
    func measureCallFigures() throws {
        guard let main, let ephemeral else { return }
        let calls = plan.callsPerRound
        let warm = plan.warmUpCalls
        let serialKeys = ["ping.serial", "floor.serial", "navd.serial", "ephemeralFloor.serial", "ephemeral.serial"]
        let serialSubjects: [(Connection, CallTarget, CallKind)] = [
            (main.client, .navd, .ping), (main.client, .floor, .pushPop), (main.client, .navd, .pushPop),
            (ephemeral.client, .floor, .pushPop), (ephemeral.client, .navd, .pushPop),
        ]
        let serial = BenchCase(
            warmUp: { _ = try CallMeasurement.serialInterleaved(serialSubjects, calls: warm) },
            measure: {
                let samples = try CallMeasurement.serialInterleaved(serialSubjects, calls: calls)
                return Dictionary(uniqueKeysWithValues: zip(serialKeys, samples))
            })
        let pipelinedKeys = ["ping.pipelined", "floor.pipelined", "navd.pipelined", "ephemeralFloor.pipelined", "ephemeral.pipelined"]
        let pipelined = BenchCase(
            warmUp: { _ = try CallMeasurement.pipelinedInterleaved(serialSubjects, calls: warm) },
            measure: {
                let samples = try CallMeasurement.pipelinedInterleaved(serialSubjects, calls: calls * 2)
                return Dictionary(uniqueKeysWithValues: zip(pipelinedKeys, samples))
            })
        progress("items 1-3, 8: serial and 32-in-flight calls, \(plan.rounds) rounds")
        let results = try interleave([serial, pipelined])
        func summary(_ key: String) -> Summary { results[key]?.summary() ?? Samples().summary() }
        let ping = summary("ping.serial"), floor = summary("floor.serial"), navd = summary("navd.serial")
        let pingPipe = summary("ping.pipelined"), floorPipe = summary("floor.pipelined"), navdPipe = summary("navd.pipelined")
        let ephFloor = summary("ephemeralFloor.serial"), eph = summary("ephemeral.serial")
        let ephFloorPipe = summary("ephemeralFloor.pipelined"), ephPipe = summary("ephemeral.pipelined")

        figures.append(Figure("floor.ping.serial", "Peer.Ping to navd's connection, one at a time", ping))
        figures.append(Figure("floor.ping.inflight32", "Peer.Ping to navd's connection, 32 in flight", pingPipe))
        figures.append(Figure("floor.service.serial", "navd-floor Push/Pop, one at a time", floor))
        figures.append(Figure("floor.service.inflight32", "navd-floor Push/Pop, 32 in flight", floorPipe))

        var latency = Figure("latency.navd", "navd Push/Pop one at a time (persistence on)", navd)
        latency.compare(ratio: navd.p50 / floor.p50, of: "navd p50 / navd-floor p50", atMost: 1.25)
        figures.append(latency)
        var latencyPing = Figure("latency.navd.vs_ping", "the same, against Ping", navd)
        latencyPing.compare(ratio: navd.p50 / ping.p50, of: "navd p50 / Ping p50")
        figures.append(latencyPing)

        var throughput = Figure("throughput.navd", "navd Push/Pop, 32 in flight (persistence on)", navdPipe)
        throughput.compare(ratio: navdPipe.opsPerSecond / floorPipe.opsPerSecond, of: "navd ops/s / navd-floor ops/s", atLeast: 1.0)
        figures.append(throughput)
        var throughputPing = Figure("throughput.navd.vs_ping", "the same, against Ping", navdPipe)
        throughputPing.compare(ratio: navdPipe.opsPerSecond / pingPipe.opsPerSecond, of: "navd ops/s / Ping ops/s")
        figures.append(throughputPing)

        figures.append(Figure("durability.floor.serial", "navd-floor on the ephemeral navd's bus, one at a time", ephFloor))
        var ephLatency = Figure("durability.ephemeral.latency", "navd --ephemeral Push/Pop one at a time", eph)
        ephLatency.compare(ratio: eph.p50 / ephFloor.p50, of: "navd --ephemeral p50 / navd-floor p50 (same bus)", atMost: 1.10)
        ephLatency.note = "price of persistence: latency ratio \(format2(navd.p50 / floor.p50)) with it, \(format2(eph.p50 / ephFloor.p50)) without"
        figures.append(ephLatency)
        figures.append(Figure("durability.floor.inflight32", "navd-floor on the ephemeral navd's bus, 32 in flight", ephFloorPipe))
        var ephThroughput = Figure("durability.ephemeral.throughput", "navd --ephemeral Push/Pop, 32 in flight", ephPipe)
        ephThroughput.compare(ratio: ephPipe.opsPerSecond / ephFloorPipe.opsPerSecond, of: "navd --ephemeral ops/s / navd-floor ops/s (same bus)", atLeast: 1.0)
        ephThroughput.note = "price of persistence: throughput ratio \(format2(navdPipe.opsPerSecond / floorPipe.opsPerSecond)) with it, \(format2(ephPipe.opsPerSecond / ephFloorPipe.opsPerSecond)) without"
        figures.append(ephThroughput)
    }

    /// Item 4: 1, 10 and 50 watchers subscribed to StackChanged from navd and from the floor;
    /// send Push or Pop (to each in turn), time until the last watcher holds the signal.
    func measureFanOut() throws {
        guard let main else { return }
        for watchers in [1, 10, 50] {
            progress("item 4: fan-out to \(watchers) watchers")
            let pool = try WatcherPool(
                address: main.bus.address, count: watchers, senders: [CallTarget.navd.busName, CallTarget.floor.busName])
            defer { pool.stop() }
            let calls = plan.fanOutCalls
            let warm = max(4, plan.warmUpCalls / 4)
            let results = try interleave([
                BenchCase(
                    warmUp: { _ = try CallMeasurement.fanOut(main.client, [.floor, .navd], pool: pool, calls: warm) },
                    measure: {
                        let samples = try CallMeasurement.fanOut(main.client, [.floor, .navd], pool: pool, calls: calls)
                        return ["floor": samples[0], "navd": samples[1]]
                    })
            ])
            let floor = results["floor"]?.summary() ?? Samples().summary()
            let navd = results["navd"]?.summary() ?? Samples().summary()
            figures.append(Figure("fanout.\(watchers).floor", "send Push/Pop to navd-floor -> last of \(watchers) watchers has StackChanged", floor, showOps: false))
            var figure = Figure("fanout.\(watchers).navd", "send Push/Pop to navd -> last of \(watchers) watchers has StackChanged", navd, showOps: false)
            figure.compare(ratio: navd.p50 / floor.p50, of: "navd p50 / navd-floor p50", atMost: 1.2)
            figure.note = "p99 ratio \(format2(navd.p99 / floor.p99))"
            figures.append(figure)
        }
    }
}
