import DBus
import Foundation
import NavigatorProtocol
import TestSupport
import Testing
import RandomRouteGraphs

/// The outcome of a bad-input run, asserted by the test and printed as its figures.
struct BadInputOutcome: Sendable {
    var seed: UInt64 = 0
    var calls = 0
    /// Calls sent with the no-reply-expected flag (not counted in `calls`).
    var noReplyCalls = 0
    var successes = 0
    var errors: [String: Int] = [:]
    var refusedBeforeSending = 0
    var failedCallsChecked = 0
    /// Successful changes and no-ops whose effect was checked.
    var successesChecked = 0
    var stateViolations: [String] = []
    var unexpectedSuccesses: [String] = []
    var unanswered = 0
    var strayReplies = 0
    var crashes = 0
    var seconds = 0.0
    /// Of `seconds`, the time spent building the calls (in this process, not in navd).
    var generationSeconds = 0.0
}

extension BadInputOutcome {
    /// The figures every bad-input run prints, as the test named `test`; the test adds its own
    /// before printing them.
    func figures(_ test: String) -> Figures {
        var figures = Figures(test)
        figures.add("seed", seed)
        figures.add("calls", calls)
        figures.add("successes", successes)
        figures.add("errors", tally: errors)
        figures.add("failed-calls-checked", failedCallsChecked)
        figures.add("successful-changes-checked", successesChecked)
        figures.add("unanswered", unanswered)
        figures.add("stray-replies", strayReplies)
        figures.add("state-changed-by-failure", stateViolations.count)
        figures.add("crashes", crashes)
        return figures
    }

    /// Expects what every bad-input run guarantees: `navd` never exited, every call was answered
    /// once, no failed call that was checked changed the state, and no call that must fail
    /// succeeded. The messages carry the seed that replays the run.
    func expectAnsweredAndHarmless(_ navd: NavdProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(crashes == 0, "navd exited during bad input (seed \(seed)): \(navd.stderr.suffix(2000))", sourceLocation: sourceLocation)
        #expect(unanswered == 0, "calls without a reply (seed \(seed))", sourceLocation: sourceLocation)
        #expect(strayReplies == 0, "replies that answered no call in flight, or a call twice (seed \(seed))", sourceLocation: sourceLocation)
        #expect(stateViolations.isEmpty, "seed \(seed): \(stateViolations.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(unexpectedSuccesses.isEmpty, "seed \(seed): \(unexpectedSuccesses.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
}

/// Sends `calls` generated calls on one connection, pipelined, each followed (for a sampled
/// share, or all) by `GetTree`, `GetFlows`, `Facts` and `History`, so that the state after a failed call can be
/// compared with the state before it — the previous call's check.
struct BadInputRun {
    let navd: NavdProcess
    let calls: Int
    /// The share of calls followed by a state check (1: all).
    let checkShare: Double
    let seed: UInt64
    /// navd's `--max-path-depth`, when the run should also check that no path grows past it.
    var maxPathDepth: Int?
    /// The navigator the calls (and the checks) go to: the default one, or an app's object.
    var path = Navigator.objectPath.rawValue

    private enum Slot {
        case call(label: String, mayAnswerSuccess: Bool, mayChangeTree: Bool)
        /// `afterUnansweredCall`: a no-reply call came in between, so nothing is compared.
        case checkTree(afterUnansweredCall: Bool)
        /// `GetFlows`, then the `Facts` property: the durable state beside the tree.
        case checkFlows, checkFacts
        case checkHistory
    }

    func run() throws -> BadInputOutcome {
        var outcome = BadInputOutcome()
        outcome.seed = seed
        let began = monotonicSeconds()
        let connection = try Connection(.address(navd.bus.address))
        defer { connection.close() }
        let pipeline = Pipeline(connection: connection, window: 32, replyTimeout: 30)
        var generator = BadCallGenerator(seed: seed, path: path)
        var decider = SeededGenerator(seed: seed ^ 0x5eed)

        var slots: [Int: Slot] = [:]
        var lastSnapshot: TreeSnapshot?
        var pendingTree: [DBusValue]?
        var pendingCoordination: [DBusValue] = []
        // The calls answered since the last check, and the last one of them.
        var callsSinceCheck = 0
        var lastCall: (label: String, failed: Bool, mayChangeTree: Bool, error: String, revision: UInt64?)?

        let deliver: (Int, Message) throws -> Void = { index, reply in
            guard let slot = slots.removeValue(forKey: index) else { return }
            switch slot {
            case .call(let label, let mayAnswerSuccess, let mayChangeTree):
                callsSinceCheck += 1
                if reply.kind == .error {
                    let name = Contract.shortErrorName(reply.errorName ?? "?")
                    outcome.errors[name, default: 0] += 1
                    lastCall = (label, true, mayChangeTree, name, nil)
                } else {
                    outcome.successes += 1
                    if !mayAnswerSuccess, outcome.unexpectedSuccesses.count < 10 {
                        outcome.unexpectedSuccesses.append("\(label) answered success with signature '\(reply.signature)'")
                    }
                    lastCall = (label, false, mayChangeTree, "", mayChangeTree ? try reply.body().first?.uint64Value : nil)
                }
            case .checkTree(let afterUnansweredCall):
                guard reply.kind == .methodReturn else { throw HarnessError("GetTree failed: \(reply.bodyError?.description ?? "?")") }
                pendingTree = try reply.body()
                pendingCoordination = []
                if afterUnansweredCall { callsSinceCheck += 2 }
            case .checkFlows, .checkFacts:
                guard reply.kind == .methodReturn else { throw HarnessError("\(slot) failed: \(reply.bodyError?.description ?? "?")") }
                pendingCoordination += try reply.body()
            case .checkHistory:
                guard reply.kind == .methodReturn, let tree = pendingTree else {
                    throw HarnessError("History failed: \(reply.bodyError?.description ?? "?")")
                }
                var snapshot = try TreeSnapshot(tree: tree, history: try reply.body())
                snapshot.coordination = pendingCoordination
                if let before = lastSnapshot, callsSinceCheck == 1, let call = lastCall {
                    if call.failed || !call.mayChangeTree {
                        if call.failed { outcome.failedCallsChecked += 1 }
                        if snapshot != before, outcome.stateViolations.count < 10 {
                            outcome.stateViolations.append(
                                "\(call.label) (\(call.failed ? "failed with \(call.error)" : "a read")) changed the state: before \(before.summary), after \(snapshot.summary)")
                        }
                    } else if let revision = call.revision {
                        // A success: a no-op leaves everything as it was; a change adds exactly
                        // one revision and one history entry.
                        outcome.successesChecked += 1
                        let isNoOp = revision == before.revision
                        let rightChange = revision == before.revision + 1 && snapshot.revision == revision
                            && snapshot.historyRevisions.first == revision
                            && Array(snapshot.history.arrayValues?.dropFirst() ?? []) == Array(before.history.arrayValues?.prefix(15) ?? [])
                        if (isNoOp ? snapshot != before : !rightChange), outcome.stateViolations.count < 10 {
                            outcome.stateViolations.append(
                                "\(call.label) succeeded with revision \(revision) (\(isNoOp ? "a no-op" : "a change")), but the state went from \(before.summary) to \(snapshot.summary)")
                        }
                    }
                }
                if let maxPathDepth, snapshot.deepestPath > maxPathDepth, outcome.stateViolations.count < 10 {
                    outcome.stateViolations.append("after \(lastCall?.label ?? "?") a path holds \(snapshot.deepestPath) screens, over --max-path-depth \(maxPathDepth)")
                }
                lastSnapshot = snapshot
                callsSinceCheck = 0
                generator.knownRevision = snapshot.revision
                generator.knownIds = snapshot.ids
            }
        }

        var unansweredCallSent = false
        var recent: [String] = []
        func sendCheck() throws {
            slots[try pipeline.send(try Message.navigatorCall("GetTree", path: path), deliver: deliver)] = .checkTree(afterUnansweredCall: unansweredCallSent)
            unansweredCallSent = false
            slots[try pipeline.send(try Message.navigatorCall(NavigatorMethod.getFlows.name, path: path), deliver: deliver)] = .checkFlows
            let facts = try Message.navigatorCall(
                "Get", [.string(Contract.interface), .string(NavigatorProperty.facts.name)], interface: "org.freedesktop.DBus.Properties",
                path: path)
            slots[try pipeline.send(facts, deliver: deliver)] = .checkFacts
            slots[try pipeline.send(try Message.navigatorCall("History", [.uint32(16)], path: path), deliver: deliver)] = .checkHistory
        }

        try sendCheck()
        var checkedLast = true
        while outcome.calls < calls {
            let checkThis = checkShare >= 1 || decider.chance(checkShare)
            if checkThis && !checkedLast { try sendCheck() }
            let generationBegan = monotonicSeconds()
            let call = generator.next()
            outcome.generationSeconds += monotonicSeconds() - generationBegan
            if decider.chance(0.03) {
                // Sent with no-reply-expected: navd must not answer it (a reply would be stray).
                call.message.noReplyExpected = true
                try pipeline.sendExpectingNoReply(call.message)
                outcome.noReplyCalls += 1
                unansweredCallSent = true
                checkedLast = false
                continue
            }
            recent.append("\(call.label)(\(call.message.signature.prefix(40)))")
            if recent.count > 40 { recent.removeFirst() }
            let index: Int
            do {
                index = try pipeline.send(call.message, deliver: deliver)
            } catch {
                throw HarnessError("after \(outcome.calls) calls: \(error); the last calls sent: \(recent.joined(separator: ", "))")
            }
            slots[index] = .call(label: call.label, mayAnswerSuccess: call.mayAnswerSuccess, mayChangeTree: call.mayChangeTree)
            outcome.calls += 1
            if checkThis { try sendCheck() }
            checkedLast = checkThis
            if outcome.calls % 1000 == 0, !navd.isRunning { break }
        }
        try sendCheck()
        try pipeline.drain(deliver: deliver)
        outcome.refusedBeforeSending = generator.refusedBeforeSending
        outcome.unanswered = pipeline.unanswered
        outcome.strayReplies = pipeline.strayReplies
        outcome.crashes = navd.isRunning ? 0 : 1
        outcome.seconds = monotonicSeconds() - began
        return outcome
    }
}
