extension BenchRun {
    /// Ping, the C floor, the durable floor, the dbus-python peer, navd and navd --ephemeral with
    /// its own floor: one call at a time (interleaved call by call) and 32 in flight (interleaved in
    /// chunks of 256), over the rounds, all through navd-load.
    func measureCallFigures() throws {
        guard let main, let ephemeral else { return }
        let subjects: [(String, LoadTarget)] = [
            ("ping", LoadTarget(address: main.bus.address, target: .navd, kind: .ping)),
            ("floor", LoadTarget(address: main.bus.address, target: .floor, kind: .pushPop)),
            ("durableFloor", LoadTarget(address: main.bus.address, target: .durableFloor, kind: .pushPop)),
            ("python", LoadTarget(address: main.bus.address, target: .python, kind: .pushPop)),
            ("navd", LoadTarget(address: main.bus.address, target: .navd, kind: .pushPop)),
            ("ephemeralFloor", LoadTarget(address: ephemeral.bus.address, target: .floor, kind: .pushPop)),
            ("ephemeral", LoadTarget(address: ephemeral.bus.address, target: .navd, kind: .pushPop)),
        ]
        progress("latency and throughput: one at a time and 32 in flight, \(plan.rounds) rounds")
        let cpu = CPUTally()
        let summary = try serialAndInflight(subjects, cpu: [("navd", main.navd.pid)], tally: cpu)
        let ping = summary("ping.serial"), floor = summary("floor.serial"), navd = summary("navd.serial")
        let python = summary("python.serial"), pythonPipe = summary("python.inflight")
        let pingPipe = summary("ping.inflight"), floorPipe = summary("floor.inflight"), navdPipe = summary("navd.inflight")
        let durable = summary("durableFloor.serial"), durablePipe = summary("durableFloor.inflight")
        let ephFloor = summary("ephemeralFloor.serial"), eph = summary("ephemeral.serial")
        let ephFloorPipe = summary("ephemeralFloor.inflight"), ephPipe = summary("ephemeral.inflight")

        figures.append(Figure("floor.ping.serial", "Peer.Ping to navd's connection, one at a time", ping))
        figures.append(Figure("floor.ping.inflight32", "Peer.Ping to navd's connection, 32 in flight", pingPipe))
        figures.append(Figure("floor.service.serial", "navd-floor Push/Pop, one at a time", floor))
        figures.append(Figure("floor.service.inflight32", "navd-floor Push/Pop, 32 in flight", floorPipe))
        var durableFigure = Figure("floor.durable.serial", "navd-floor --state (a SQLite WAL commit per change) Push/Pop, one at a time", durable)
        durableFigure.note = "durable floor p50 / bus floor p50 \(format2(durable.p50 / floor.p50))"
        figures.append(durableFigure)
        figures.append(Figure("floor.durable.inflight32", "navd-floor --state Push/Pop, 32 in flight", durablePipe))
        figures.append(Figure("peer.python.serial", "dbus-python peer Push/Pop, one at a time", python))
        figures.append(Figure("peer.python.inflight32", "dbus-python peer Push/Pop, 32 in flight", pythonPipe))

        // navd against each other peer on its bus: p50 one at a time, ops/s 32 in flight.
        let peers: [(key: String, against: String, name: String, serial: Summary, inflight: Summary,
                     latencyAtMost: Double?, latencyNote: String?, throughputAtLeast: Double?)] = [
            ("durable", "the durable floor", "durable floor", durable, durablePipe, nil,
             "p99 ratio \(format2(navd.p99 / durable.p99)); beside the bus floor: navd p50 / navd-floor p50 \(format2(navd.p50 / floor.p50))", nil),
            ("python", "the dbus-python peer", "dbus-python peer", python, pythonPipe, 1.0, nil, 1.2),
            ("ping", "Ping", "Ping", ping, pingPipe, nil, nil, nil),
        ]
        figures.append(Figure(
            "latency.navd", "navd Push/Pop one at a time (persistence on)", navd, over: floor, of: "navd p50 / navd-floor p50",
            atMost: 1.25))
        for peer in peers {
            figures.append(Figure("latency.navd.vs_\(peer.key)", "the same, against \(peer.against)", navd).comparing(
                ratio: navd.p50 / peer.serial.p50, of: "navd p50 / \(peer.name) p50", atMost: peer.latencyAtMost,
                note: peer.latencyNote))
        }
        figures.append(Figure("throughput.navd", "navd Push/Pop, 32 in flight (persistence on)", navdPipe).comparing(
            ratio: navdPipe.opsPerSecond / floorPipe.opsPerSecond, of: "navd ops/s / navd-floor ops/s", atLeast: 1.0))
        for peer in peers {
            figures.append(Figure("throughput.navd.vs_\(peer.key)", "the same, against \(peer.against)", navdPipe).comparing(
                ratio: navdPipe.opsPerSecond / peer.inflight.opsPerSecond, of: "navd ops/s / \(peer.name) ops/s",
                atLeast: peer.throughputAtLeast))
        }

        figures.append(cpuPerChange(
            cpu, key: "navd", against: nil, figure: "cpu.per_change",
            more: "the same navd also answers the run's Peer.Ping calls, so this is above what a change alone costs; "
                + "baseline.cpu.per_change (--baseline-navd) measures changes alone"))

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

    /// 1, 10 and 50 watcher processes (navd-load's), each subscribed to StackChanged from navd,
    /// the floor and the dbus-python peer; Push or Pop to each in turn, timed until the last
    /// watcher has read the signal.
    func measureFanOut() throws {
        guard let main else { return }
        let address = main.bus.address
        let subjects: [(String, LoadTarget)] = [
            ("floor", LoadTarget(address: address, target: .floor, kind: .pushPop)),
            ("python", LoadTarget(address: address, target: .python, kind: .pushPop)),
            ("navd", LoadTarget(address: address, target: .navd, kind: .pushPop)),
            // What a durable change costs a watcher with nothing else: navd commits before it signals.
            ("durableFloor", LoadTarget(address: address, target: .durableFloor, kind: .pushPop)),
        ]
        for watchers in [1, 10, 50] {
            progress("fan-out to \(watchers) watchers")
            let results = try interleave([
                loadCase(.fanout, subjects, calls: plan.fanOutCalls, warmUp: max(4, plan.warmUpCalls / 4), watchers: watchers)
            ])
            let floor = results.summary(of: "floor"), python = results.summary(of: "python"), navd = results.summary(of: "navd")
            let durable = results.summary(of: "durableFloor")
            let what = "-> last of \(watchers) watchers has StackChanged"
            figures.append(Figure("fanout.\(watchers).floor", "send Push/Pop to navd-floor \(what)", floor, showOps: false))
            figures.append(Figure("fanout.\(watchers).python", "send Push/Pop to the dbus-python peer \(what)", python, showOps: false))
            figures.append(Figure(
                "fanout.\(watchers).durable", "send Push/Pop to navd-floor --state (a SQLite commit before the signal) \(what)", durable,
                showOps: false))
            figures.append(Figure(
                "fanout.\(watchers).navd", "send Push/Pop to navd \(what)", navd, over: floor, of: "navd p50 / navd-floor p50",
                atMost: 1.2, showOps: false, more: "navd p50 / dbus-python peer p50 \(format2(navd.p50 / python.p50)); navd p50 / durable floor p50 \(format2(navd.p50 / durable.p50))"))
        }
    }
}
