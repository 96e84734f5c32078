import Foundation
import NavdClient
import TestSupport
import Testing

/// Random call sequences on a real navd (refusals and no-ops among them, reloads of an edited route file,
/// reverts to random revisions), exported and replayed: every replay is all equal. Seeded; the seed is printed
/// (`NAVD_REPLAY_SEED=N` runs that one again). A short run in `make test`, many more with `NAVD_PROPERTY=long`
/// (`make check-long`'s properties part).
@Suite("replay property", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(20)))
struct ReplayPropertyTests {
    static let isLong = ProcessInfo.processInfo.environment["NAVD_PROPERTY"]?.lowercased() == "long"

    /// SplitMix64: small, seedable, the same sequence everywhere.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((mixed ^ (mixed >> 31)) % UInt64(bound))
        }
    }

    static let routes = ["orange", "yellow", "green", "news-item", "account", "settings", "modal", "login"]

    /// One random call (or a reload after editing the route file); refusals are part of the sequence.
    static func randomCall(_ generator: inout Generator, _ client: NavigatorClient, _ fixture: RecordingFixture, strict: inout Bool) throws {
        let route = routes[generator.next(routes.count)]
        let params: Params = route == "news-item" ? ["id": .int(Int64(generator.next(100)))] : [:]
        switch generator.next(16) {
        case 0, 1, 2: _ = try? client.send(.push(route, params: params))
        case 3: _ = try? client.send(.pop)
        case 4: _ = try? client.send(.back)
        case 5: _ = try? client.send(.selectTab(["rainbow", "news", "profile"][generator.next(3)]))
        case 6: _ = try? client.send(.present(route, params: params, style: generator.next(2) == 0 ? .sheet : .cover))
        case 7: _ = try? client.send(.dismiss)
        case 8: _ = try? client.send(.undo)
        case 9: _ = try? client.send(.redo)
        case 10: _ = try? client.send(.send(["next", "show-modal", "close", "succeeded", "cancel", "call"][generator.next(6)]))
        case 11: _ = try? client.send(.open(["/news/\(generator.next(9))", "root", "end", "/rainbow/orange"][generator.next(4)]))
        case 12:
            let current = try client.send(.getState).revision
            _ = try? client.send(.revert(to: UInt64(1 + generator.next(Int(current)))))
        case 13: _ = try? client.send(.setFacts(["signed-in": .bool(generator.next(2) == 0)]))
        case 14: _ = try? client.send(.apply([.push(route, params: params), .selectTab("rainbow")]))
        default:
            strict.toggle()
            let isStrict = strict
            try fixture.writeRoutes("routes.yaml") { isStrict ? yellowNeedsSigningIn($0) : $0 }
            _ = try? client.send(.reload)
        }
    }

    @Test func randomSessionsReplayAllEqual() throws {
        let runs = Self.isLong ? 8 : 1
        let calls = Self.isLong ? 300 : 40
        let given = ProcessInfo.processInfo.environment["NAVD_REPLAY_SEED"].flatMap { UInt64($0) }
        let firstSeed = given ?? UInt64(Date().timeIntervalSince1970 * 1000)
        for run in 0..<(given == nil ? runs : 1) {
            let seed = firstSeed &+ UInt64(run)
            print("replay property: seed \(seed) (NAVD_REPLAY_SEED=\(seed) runs it again), \(calls) calls")
            var generator = Generator(state: seed)
            let fixture = try RecordingFixture()
            let client = try fixture.client()
            var strict = false
            for _ in 0..<calls { try Self.randomCall(&generator, client, fixture, strict: &strict) }
            let count = try fixture.changeCount()
            let recording = try fixture.export("random.json")
            let result = try fixture.replay(recording)
            #expect(result.status == 0 && result.stdout == "replayed \(count) changes: all equal\n", "seed \(seed): \(result)")
            let redacted = try fixture.export("random-redacted.json", "--redact")
            let redactedResult = try fixture.replay(redacted)
            #expect(redactedResult.status == 0, "seed \(seed), redacted: \(redactedResult)")
        }
    }
}
