import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// Random sequences mixing events, flows, facts and the older operations on the demo graph and on our two
/// route files (nested flows; guards).
@Suite(.timeLimit(.minutes(3)))
struct CoordinationPropertyTests {
    /// A graph and the names random operations pick from.
    struct Scenario: Sendable {
        var graph: RouteGraph
        var events: [String]
        var flows: [String]
        var outputs: [String]
        var facts: [String]
        var routes: [String]
        var tabs: [String]
        var links: [String]
        var eventParams: InputParams
    }

    static let scenarios: [Scenario] = {
        let demo = Scenario(
            graph: .demo,
            events: [
                "next", "root", "end", "show-modal", "close", "call", "succeeded", "failed", "retry", "account", "log-in",
                "forgot-password", "sent", "cancel", "logout", "nope",
            ],
            flows: ["auth", "auth", "auth", "nope"], outputs: ["signed-in", "cancelled", "other"], facts: ["signed-in", "signed-in", "nope"],
            routes: ["account", "settings", "orange", "forgot-password"], tabs: ["rainbow", "news", "profile"],
            links: ["/profile/settings", "root", "/news/3"], eventParams: ["message": .string("m")])
        let shop = Scenario(
            graph: try! fixtureGraph("shop"),
            events: ["buy", "next", "pick", "pay", "cancel", "back-out", "help", "nope"],
            flows: ["checkout", "address", "nope"], outputs: ["paid", "abandoned", "chosen"], facts: ["member"],
            routes: ["help", "receipt", "cart", "address-form"], tabs: [], links: ["/home/help", "/home"],
            eventParams: ["order": .int(3), "city": .string("Oslo")])
        let vault = Scenario(
            graph: try! fixtureGraph("vault"),
            events: ["wrong-order", "right-order", "go", "both", "admin-area", "shop", "enter", "give-up", "nope"],
            flows: ["unlock", "verify", "broken"], outputs: ["ok", "no", "done"], facts: ["unlocked", "verified", "admin"],
            routes: ["secret", "vault", "marker", "pin"], tabs: [], links: ["/home/secret", "/home/marker"], eventParams: [:])
        return [demo, shop, vault]
    }()

    /// The operation a random code stands for.
    static func operation(_ code: Int, in scenario: Scenario) -> Navigation.Operation {
        let pick = code / 23
        switch code % 23 {
        case 0...8:
            let event = scenario.events[pick % scenario.events.count]
            let params: InputParams = pick % 3 != 0 ? scenario.eventParams : [:]
            let source = pick % 11 == 0 ? "#\(pick % 20)" : ""
            return .send(source: source, event: event, params: params, expectedRevision: 0)
        case 9: return .start(flow: scenario.flows[pick % scenario.flows.count], params: pick % 2 == 0 ? ["order": .int(1)] : [:])
        case 10: return .finish(output: scenario.outputs[pick % scenario.outputs.count], params: pick % 2 == 0 ? ["city": .string("x")] : [:])
        case 11, 12:
            let fact = scenario.facts[pick % scenario.facts.count]
            return .setFacts([fact: pick % 7 == 0 ? .string("yes") : .bool(pick % 2 == 0)])
        case 13: return scenario.tabs.isEmpty ? .popToRoot : .selectTab(scenario.tabs[pick % scenario.tabs.count])
        case 14: return .push(route: scenario.routes[pick % scenario.routes.count], params: [:])
        case 15: return .pop
        case 16: return .dismiss
        case 17: return .back
        case 18: return .undo
        case 19: return .redo
        case 20: return .open(scenario.links[pick % scenario.links.count])
        case 21:
            return .apply([
                RawOperation(name: "send", arguments: ["event": .string(scenario.events[pick % scenario.events.count])]),
                RawOperation(name: "push", arguments: ["route": .string(scenario.routes[pick % scenario.routes.count])]),
            ], expectedRevision: 0)
        default: return .popTo(target: scenario.routes[pick % scenario.routes.count])
        }
    }

    /// Screens anywhere in the tree whose route requires a fact that is false.
    static func guardedScreensWithFalseFacts(_ coordinator: Coordinator) -> [String] {
        var found: [String] = []
        for tab in coordinator.state.tree.tabs {
            for frame in tab.layers {
                for screen in frame.screens {
                    let requires = coordinator.graph.routes[screen.route]?.requires ?? []
                    if requires.contains(where: { coordinator.facts[$0] != .bool(true) }) { found.append("\(screen.route) (\(screen.id))") }
                }
            }
        }
        return found
    }

    static let removals: Set<String> = ["pop", "dismiss", "back", "popto"]

    @Test func coordinationInvariantsHoldForRandomSequences() async {
        await propertyCheck(count: 240, input: Gen.int(in: 0...99_999).array(of: 1...60)) { codes in
            let scenario = Self.scenarios[codes[0] % Self.scenarios.count]
            let start = Coordinator(graph: scenario.graph)
            var coordinator = start
            var records: [JournalRecord] = []
            for (step, code) in codes.enumerated() {
                let op = Self.operation(code, in: scenario)
                let before = coordinator
                let time = Int64(step)
                var predicted: Result<Resolution, NavigationError>?
                if case .send(let source, let event, let params, _) = op, source.isEmpty {
                    do throws(NavigationError) {
                        predicted = .success(try coordinator.resolve(.event(event, params: params)))
                    } catch {
                        predicted = .failure(error)
                    }
                    #expect(coordinator.state == before.state, "Resolve changed the state")
                }
                let change: Change
                do throws(NavigationError) {
                    change = try coordinator.perform(op, at: time)
                } catch {
                    #expect(coordinator.state == before.state, "a failed \(op.cause) changed the state")
                    if case .failure(let expected) = predicted { #expect(error == expected) } else if predicted != nil {
                        Issue.record("Resolve succeeded but \(op) failed: \(error); path \(before.routes)")
                    }
                    continue
                }
                if case .success(let resolution) = predicted {
                    #expect(resolution.path == coordinator.path && resolution.revision == coordinator.revision)
                    #expect(resolution.outcome == change.outcome)
                } else if predicted != nil {
                    Issue.record("Resolve failed but Send succeeded")
                }
                #expect(Self.guardedScreensWithFalseFacts(coordinator).isEmpty, "after \(op.cause): \(Self.guardedScreensWithFalseFacts(coordinator))")
                #expect(coordinator.state.tree.structuralProblem() == nil)
                if change.isNoOp { continue }
                records.append(change.record!)
                let finished = change.endedFlows.filter { !$0.output.isEmpty }
                // A change that only abandons flows runs no handler and no kept request.
                if finished.isEmpty { #expect(change.outcome != .resumed && change.outcome != .finished) }
                if Self.removals.contains(op.cause), before.selectedTab == coordinator.selectedTab {
                    #expect(Array(before.path.prefix(coordinator.path.count)) == coordinator.path, "\(op.cause) added screens")
                }
                // A finished flow leaves the tree below its first screen (the demo's on-output handlers and kept
                // requests only add screens above it).
                for end in finished where change.outcome == .finished {
                    guard let first = before.flows.first(where: { $0.id == end.id })?.firstScreen,
                        let index = before.path.firstIndex(where: { $0.id == first }) else { continue }
                    #expect(Array(coordinator.path.prefix(index)) == Array(before.path.prefix(index)))
                    #expect(!coordinator.path.contains { $0.id == first })
                }
                for ended in change.endedFlows { #expect(!coordinator.flows.contains { $0.id == ended.id }) }
                let snapshot = coordinator.state.encodedSnapshot()
                #expect((try? NavigationState.decodeSnapshot(snapshot)) == coordinator.state)
            }
            var replayed = start
            do {
                for record in records { _ = try replayed.replay(JournalRecord.decode(record.encoded())) }
            } catch {
                Issue.record("replay failed: \(error)")
            }
            #expect(replayed.state == coordinator.state)
        }
    }

    /// The generator must reach each outcome and each new error, or the properties prove little.
    @Test func randomSequencesReachEveryOutcomeAndError() {
        var outcomes: [Outcome: Int] = [:]
        var errors: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<450 {
            let scenario = Self.scenarios[round % Self.scenarios.count]
            var coordinator = Coordinator(graph: scenario.graph)
            for step in 0..<60 {
                let op = Self.operation(Int.random(in: 0...99_999, using: &generator), in: scenario)
                do throws(NavigationError) {
                    let change = try coordinator.perform(op, at: Int64(step))
                    if case .send = op { outcomes[change.outcome, default: 0] += 1 }
                    if !change.endedFlows.filter({ $0.output.isEmpty }).isEmpty { outcomes[.noop, default: 0] += 1 }  // abandoned
                } catch {
                    errors[error.name, default: 0] += 1
                }
            }
        }
        print("outcomes: \(outcomes)")
        print("errors: \(errors.sorted { $0.key < $1.key })")
        for outcome in [Outcome.applied, .redirected, .resumed, .finished, .ignored, .noop] {
            #expect(outcomes[outcome, default: 0] > 0, "no \(outcome)")
        }
        for name in ["UnhandledEvent", "StaleSource", "UnknownFlow", "UnknownOutput", "NotInFlow", "UnknownFact", "GuardFailed", "GuardLoop", "InvalidParams"] {
            #expect(errors[name, default: 0] > 0, "no \(name)")
        }
    }
}
