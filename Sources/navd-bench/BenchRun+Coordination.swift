import Foundation

extension BenchRun {
    /// Send of an event that pushes (`next` on `red` pushes `orange`) against Push of the same
    /// route, and Resolve of that event against the Send, on the main navd (the demo graph), on
    /// a navd started with a generated route file of 1,000 routes and 100 flows (so resolution
    /// that scanned the graph would show), and on another navd with that file whose top screen
    /// sits 10 nested flows deep, sending an event only the app scope handles (so resolution
    /// tries every scope). Each site's three call patterns take turns pair by pair on the one
    /// navd (they share its tree: a Push is popped before the next Send); the sites alternate
    /// over the rounds. The ratios compare the Send or Push calls alone (the first of each
    /// pair), not their Pops.
    func measureCoordination() throws {
        guard let main else { return }
        let routeFile = workDirectory + "/coordination-routes.yaml"
        let generator = CoordinationRouteFile()
        try generator.yaml().write(toFile: routeFile, atomically: true, encoding: .utf8)
        let check = try captureRun(binaries.navd, ["--check-routes", routeFile], directory: workDirectory)
        guard check.status == 0 else {
            throw BenchError("navd --check-routes refuses the generated route file \(routeFile): \(check.errors)\(check.output)")
        }
        func startLarge(_ name: String) throws -> BenchSite {
            try BenchSite(
                name: name, binaries: binaries, stateDirectory: workDirectory + "/state-" + name,
                navdArguments: ["--routes", routeFile])
        }
        let large = try startLarge("coordination")
        defer { large.stop() }
        let deep = try startLarge("coordination-deep")
        defer { deep.stop() }
        for event in generator.descent {
            _ = try deep.client.call(try NavigatorCalls.send(event, to: .navd))
        }

        func subjects(_ site: BenchSite, _ prefix: String, event: String) -> [(String, LoadTarget)] {
            [
                (prefix + ".push", LoadTarget(address: site.bus.address, target: .navd, kind: .pushPop)),
                (prefix + ".send", LoadTarget(address: site.bus.address, target: .navd, kind: .sendPop(event: event))),
                (prefix + ".resolve", LoadTarget(address: site.bus.address, target: .navd, kind: .resolve(event: event))),
            ]
        }
        func coordinationCase(_ site: BenchSite, _ prefix: String, event: String) -> (Int) throws -> [String: Samples] {
            loadCase(
                .serial, subjects(site, prefix, event: event), calls: plan.callsPerRound, warmUp: plan.warmUpCalls,
                wholePairs: true)
        }
        progress("coordination: Send and Resolve against Push, demo graph and \(generator.routeCount) routes, \(plan.rounds) rounds")
        let results = try interleave([
            coordinationCase(main, "demo", event: "next"),
            coordinationCase(large, "large", event: "next"),
            coordinationCase(deep, "deep", event: generator.appEvent),
        ])
        let largeGraph = "\(generator.routeCount) routes, \(generator.flowCount) flows"
        let graphs = [
            ("demo", "coordination", "next from red, the demo graph"),
            ("large", "coordination.large", "next from red, \(largeGraph)"),
            ("deep", "coordination.deep",
             "\(generator.appEvent) from \(generator.chainDepth) flows deep (app scope), \(largeGraph)"),
        ]
        for (prefix, key, graph) in graphs {
            appendCoordinationFigures(results, prefix: prefix, key: key, graph: graph)
        }
        func firstCallsP50(_ key: String) -> Double { results[key]?.firstOfPairs.summary().p50 ?? 0 }
        let demoPush = firstCallsP50("demo.push"), demoSend = firstCallsP50("demo.send")
        for prefix in ["large", "deep"] where demoPush > 0 && demoSend > 0 {
            guard let index = figures.firstIndex(where: { $0.key == "coordination.\(prefix).send" }) else { continue }
            figures[index].note! += "; against the demo graph's navd (another process, same rounds): Push p50 x"
                + "\(format2(firstCallsP50(prefix + ".push") / demoPush)), Send p50 x\(format2(firstCallsP50(prefix + ".send") / demoSend))"
        }
    }

    /// The figures of one site: Push alone, Send against it, Resolve against the Send.
    private func appendCoordinationFigures(_ results: [String: Samples], prefix: String, key: String, graph: String) {
        let pairs = { (name: String) in results[prefix + "." + name] ?? Samples() }
        let push = pairs("push").firstOfPairs.summary(), send = pairs("send").firstOfPairs.summary()
        let resolve = pairs("resolve").summary()
        let pushPair = pairs("push").summary(), sendPair = pairs("send").summary()

        figures.append(Figure(key + ".push", "navd Push orange, one at a time (beside the Send of \(graph); its Pops left out)", push, showOps: false))
        figures.append(Figure(
            key + ".send", "navd Send (pushes orange), one at a time: \(graph)", send, over: push,
            of: "Send p50 / Push p50 (same navd, interleaved)", atMost: 1.10, showOps: false,
            more: "with their Pops: Send/Pop p50 / Push/Pop p50 \(format2(sendPair.p50 / pushPair.p50))"))
        figures.append(Figure(
            key + ".resolve", "navd Resolve of that event, one at a time: \(graph)", resolve, over: send,
            of: "Resolve p50 / Send p50 (same navd, interleaved)", atMost: 1.00, showOps: false))
    }
}
