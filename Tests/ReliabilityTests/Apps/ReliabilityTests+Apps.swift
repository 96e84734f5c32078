import DBus
import Foundation
import NavigatorProtocol
import TestSupport
import Testing
import RandomRouteGraphs

extension ReliabilityTests {
    /// The apps of the reliability tests: `demo` (the demo graph, so that the bad-input generator's
    /// routes, tabs, events and flows apply) and `other` (a small single stack).
    static let otherApp = """
        root: home
        routes:
          home: {}
          a: {}
          b: {}
          c: {}

        """

    /// `withNavd` with an apps folder holding `demo` and `other`: starts a private bus and navd
    /// with persistence on in a fresh state directory, runs `body`, then stops both and removes
    /// the directory. When this machine cannot run them it prints why and runs nothing.
    static func withAppsNavd(_ test: String, _ body: (ReliabilityRun) async throws -> Void) async throws {
        try await withNavd(test, prepare: { navd in
            let demo = try ChildProcess.run(NavdProcess.executable, ["--print-default-routes"], timeout: 20)
            guard demo.status == 0 else { throw HarnessError("navd --print-default-routes failed: \(demo.stderr)") }
            try demo.stdout.write(toFile: navd.appsDirectory + "/demo.yaml", atomically: true, encoding: .utf8)
            try otherApp.write(toFile: navd.appsDirectory + "/other.yaml", atomically: true, encoding: .utf8)
        }, body)
    }

    /// The object of `app` (nil: the default navigator).
    static func appPath(_ app: String?) -> String {
        app.map { Navigator.appsPath.rawValue + "/" + $0 } ?? Navigator.objectPath.rawValue
    }

    /// Generated bad calls (and `Reload`) to an app's object and to unknown app paths: every one
    /// answered once, navd alive, each failed call checked changes nothing of that app, and the
    /// default navigator and the other app are as they were afterwards.
    @Test(.timeLimit(.minutes(10)))
    func badInputOnAnAppObjectIsAnsweredAndChangesNothingElse() async throws {
        try await Self.withAppsNavd("bad-input-apps") { run in
            let (bus, navd, seed) = (run.bus, run.navd, run.seed)
            print("reliability: bad-input-apps seed=\(seed) (NAVD_RELIABILITY_SEED=\(seed) replays it)")
            func others() throws -> [[DBusValue]] {
                let connection = try Connection(.address(bus.address))
                defer { connection.close() }
                return try [nil, "other"].flatMap { app in
                    [try connection.navigator("GetTree", at: Self.appPath(app)),
                     try connection.navigator("History", [.uint32(1000)], at: Self.appPath(app))]
                }
            }
            let before = try others()
            var generated = BadInputRun(
                navd: navd, calls: ReliabilityMode.pick(short: 4_000, long: 60_000),
                checkShare: ReliabilityMode.pick(short: 0.3, long: 1.0), seed: seed)
            generated.path = Self.appPath("demo")
            let outcome = try await onThread("bad-input-apps") { [generated] in try generated.run() }
            let after = try others()

            var figures = outcome.figures("bad-input-apps")
            figures.add("seconds", String(format: "%.1f", outcome.seconds))
            figures.print()

            outcome.expectAnsweredAndHarmless(navd)
            #expect((outcome.errors["UnknownObject"] ?? 0) > 0, "unknown app paths were called")
            #expect(outcome.successesChecked > 0 && outcome.failedCallsChecked > 0)
            #expect(after == before, "calls to the demo app changed the default navigator or the other app")
            #expect(navd.isRunning)
        }
    }

    /// Clients change the default navigator and both apps while navd is killed with SIGKILL at
    /// random moments: after each restart every change answered in any of them is in that
    /// navigator's history with its cause, and no revision of a navigator is answered twice.
    @Test(.timeLimit(.minutes(15)))
    func killsWhileSeveralAppsChangeLoseNothingAnswered() async throws {
        let rounds = ReliabilityMode.pick(short: 4, long: 40)
        try await Self.withAppsNavd("crash-apps") { run in
            let (bus, navd, seed) = (run.bus, run.navd, run.seed)
            let problems = try await onThread("crash-apps") { () throws -> [String] in
                try Self.runAppsCrashRounds(bus: bus, navd: navd, rounds: rounds, seed: seed)
            }
            #expect(problems.isEmpty, "seed \(seed):\n\(problems.prefix(20).joined(separator: "\n"))")
        }
    }

    /// The rounds of `killsWhileSeveralAppsChangeLoseNothingAnswered`; the problems found.
    static func runAppsCrashRounds(bus: PrivateBus, navd: NavdProcess, rounds: Int, seed: UInt64) throws -> [String] {
        let targets: [(app: String?, routes: [String])] = [
            (nil, ["orange", "yellow", "green"]), ("demo", ["orange", "teal"]), ("other", ["a", "b", "c"]),
        ]
        let ledger = LockedBox<[String: [UInt64: String]]>([:])
        let problems = LockedBox<[String]>([])
        var rng = SeededGenerator(seed: seed)
        var answeredTotal = 0
        for round in 0..<rounds {
            let answered = LockedBox<[String: [(UInt64, String)]]>([:])
            let done = DispatchGroup()
            for index in 0..<6 {
                let target = targets[index % targets.count]
                let path = appPath(target.app)
                let clientSeed = rng.next()
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    var clientRng = SeededGenerator(seed: clientSeed)
                    guard let connection = try? Connection(.address(bus.address)) else { return }
                    defer { connection.close() }
                    // Push or pop until navd is gone; at most 150 changes, so that one round's
                    // answers stay within the history that is read back.
                    var depth = 0
                    for _ in 0..<150 {
                        let push = depth == 0 || (depth < 20 && clientRng.chance(0.6))
                        let member = push ? "Push" : "Pop"
                        let arguments: [DBusValue] = push ? [.string(clientRng.pick(target.routes)), .emptyParams] : []
                        guard let out = try? connection.navigator(member, arguments, at: path, timeoutMilliseconds: 10_000),
                              let revision = out.first?.uint64Value else { return }
                        depth += push ? 1 : -1
                        answered.withLock { $0[path, default: []].append((revision, member.lowercased())) }
                    }
                }
            }
            usleep(UInt32.random(in: 30_000...250_000, using: &rng))
            navd.kill9()
            guard done.wait(timeout: .now() + 30) == .success else {
                problems.withLock { $0.append("round \(round): a client did not finish") }
                break
            }
            try navd.start()
            let connection = try Connection(.address(bus.address))
            defer { connection.close() }
            for target in targets {
                let path = appPath(target.app)
                let history = try connection.navigator("History", [.uint32(1000)], at: path).first?.arrayValues ?? []
                var recorded: [UInt64: String] = [:]
                for entry in history {
                    let fields = entry.structFields ?? []
                    recorded[fields.first?.uint64Value ?? 0] = fields.count > 1 ? fields[1].stringValue ?? "" : ""
                }
                let revision = try connection.navigator("GetState", at: path).first?.uint64Value ?? 0
                for (answeredRevision, cause) in answered.withLock({ $0[path] ?? [] }) {
                    answeredTotal += 1
                    if recorded[answeredRevision] != cause {
                        problems.withLock { $0.append("round \(round) \(path): revision \(answeredRevision) (\(cause)) was answered but is \(recorded[answeredRevision] ?? "missing") after the restart") }
                    }
                    if answeredRevision > revision {
                        problems.withLock { $0.append("round \(round) \(path): revision \(answeredRevision) was answered, navd came back at \(revision)") }
                    }
                    let earlier = ledger.withLock { ledger in
                        defer { ledger[path, default: [:]][answeredRevision] = cause }
                        return ledger[path]?[answeredRevision]
                    }
                    if earlier != nil {
                        problems.withLock { $0.append("round \(round) \(path): revision \(answeredRevision) was answered twice (a lost change's number reused)") }
                    }
                }
                // The next round starts from the root again (a change no client records).
                try connection.navigator("PopToRoot", at: path)
            }
        }
        var figures = Figures("crash-apps")
        figures.add("seed", seed)
        figures.add("kills", rounds)
        figures.add("navigators", targets.count)
        figures.add("answered-changes-checked", answeredTotal)
        figures.add("problems", problems.withLock { $0.count })
        figures.print()
        if answeredTotal < rounds {
            problems.withLock { $0.append("the clients made almost no changes (\(answeredTotal) in \(rounds) rounds)") }
        }
        return problems.withLock { $0 }
    }
}
