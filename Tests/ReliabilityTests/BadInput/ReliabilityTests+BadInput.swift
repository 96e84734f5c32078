import DBus
import NavigatorProtocol
import Foundation
import TestSupport
import Testing

extension ReliabilityTests {
    /// ≥ 10,000 generated calls: every one answered once, navd alive, and the tree, revision
    /// and history unchanged by every failed call that is checked (a sample in the short form,
    /// all in the long form).
    @Test(.timeLimit(.minutes(10)))
    func badInputIsAnsweredAndChangesNothing() async throws {
        try await Self.withNavd("bad-input") { run in
            print("reliability: bad-input seed=\(run.seed) (NAVD_RELIABILITY_SEED=\(run.seed) replays it)")
            let generated = BadInputRun(
                navd: run.navd, calls: ReliabilityMode.pick(short: 10_000, long: 100_000),
                checkShare: ReliabilityMode.pick(short: 0.3, long: 1.0), seed: run.seed)
            let watcher = NavWatcher.isBuilt ? try NavWatcher(address: run.bus.address) : nil
            defer { watcher?.stop() }
            _ = watcher?.waitForLine(after: 0, timeout: 5) { $0.revision != nil }
            let outcome = try await onThread("bad-input") { try generated.run() }
            // navwatch followed every change the bad input made and ends on the final revision.
            let finalRevision = try await onThread("bad-input-final") { () throws -> UInt64 in
                let connection = try Connection(.address(run.bus.address))
                defer { connection.close() }
                return try connection.revision()
            }
            let watcherProblems = watcher?.problemsAtTheEnd(final: finalRevision) ?? []

            var figures = outcome.figures("bad-input")
            figures.add("no-reply-calls", outcome.noReplyCalls)
            figures.add("refused-by-client-library", outcome.refusedBeforeSending)
            figures.add("watcher", watcher == nil ? "not built" : "\(watcher!.lines().count) lines, \(watcherProblems.count) problems")
            figures.add("seconds", String(format: "%.1f", outcome.seconds))
            figures.add("of-which-generating", String(format: "%.1f", outcome.generationSeconds))
            figures.print()

            #expect(outcome.calls >= 10_000)
            outcome.expectAnsweredAndHarmless(run.navd)
            #expect(outcome.failedCallsChecked >= ReliabilityMode.pick(short: 1_000, long: 10_000))
            #expect(outcome.errors["NoReply"] == nil && outcome.errors["ServiceUnknown"] == nil)
            #expect(watcherProblems.isEmpty, "\(watcherProblems.joined(separator: "\n"))")
            #expect(run.navd.isRunning)
        }
    }

    /// The same generated calls against navd started with tight limits on its command line
    /// (path and stack depth, params size, ops, string length, undo): the same guarantees, and
    /// no path ever deeper than `--max-path-depth`.
    @Test(.timeLimit(.minutes(10)))
    func badInputUnderTightLimits() async throws {
        let limits = ["--max-path-depth", "6", "--max-stack-depth", "4", "--max-params-bytes", "200", "--max-apply-ops", "3",
                      "--max-string-bytes", "16", "--max-undo", "5"]
        try await Self.withNavd("tight-limits", extraArguments: limits) { run in
            print("reliability: tight-limits seed=\(run.seed) (NAVD_RELIABILITY_SEED=\(run.seed) replays it)")
            var generated = BadInputRun(
                navd: run.navd, calls: ReliabilityMode.pick(short: 3_000, long: 30_000),
                checkShare: ReliabilityMode.pick(short: 0.5, long: 1.0), seed: run.seed)
            generated.maxPathDepth = 6
            let outcome = try await onThread("tight-limits") { [generated] in try generated.run() }

            var figures = outcome.figures("tight-limits")
            figures.add("limits", limits.joined(separator: "_"))
            figures.print()

            outcome.expectAnsweredAndHarmless(run.navd)
            #expect((outcome.errors["LimitExceeded"] ?? 0) > 0)
            #expect(run.navd.isRunning)
        }
    }

    /// Boundary calls answer the contract's error names, in the contract's order of checks.
    @Test(.timeLimit(.minutes(2)))
    func boundaryCallsAnswerTheContractsErrors() async throws {
        try await Self.withNavd("boundaries") { run in
            let mismatches = try await onThread("boundaries") { () throws -> [String] in
                let connection = try Connection(.address(run.bus.address))
                defer { connection.close() }
                let before = try connection.treeSnapshot()
                let long4096 = String(repeating: "a", count: 4096)
                let long4097 = String(repeating: "a", count: 4097)
                let prefix = Contract.errorPrefix
                let cases: [(String, String, [DBusValue], String)] = [
                    ("route of 4097 bytes", "Push", [.string(long4097), DBusValue.emptyParams], prefix + "LimitExceeded"),
                    ("route of 4096 bytes", "Push", [.string(long4096), DBusValue.emptyParams], prefix + "UnknownRoute"),
                    ("unknown route", "Push", [.string("nope"), DBusValue.emptyParams], prefix + "UnknownRoute"),
                    ("empty route", "Push", [.string(""), DBusValue.emptyParams], prefix + "UnknownRoute"),
                    ("missing required param", "Push", [.string("news-item"), DBusValue.emptyParams], prefix + "InvalidParams"),
                    ("param of the wrong type", "Push", [.string("news-item"), .vardict([("id", .string("7"))])], prefix + "InvalidParams"),
                    ("variant in a variant", "Push", [.string("news-item"), .vardict([("id", .variant(.int64(7)))])], prefix + "InvalidParams"),
                    ("t over 2^63-1", "Push", [.string("news-item"), .vardict([("id", .uint64(UInt64(Int64.max) + 1))])], prefix + "InvalidParams"),
                    ("undeclared param", "Push", [.string("orange"), .vardict([("x", .int64(1))])], prefix + "InvalidParams"),
                    ("params over 64 KiB", "Push",
                     [.string("orange"), .vardict([("blob", .array(element: Signature(unchecked: "y"), Array(repeating: .byte(0), count: 70_000)))])],
                     prefix + "LimitExceeded"),
                    ("key of 4097 bytes", "Push", [.string("orange"), .vardict([(long4097, .int64(1))])], prefix + "LimitExceeded"),
                    ("wrong signature", "Push", [.string("orange")], DBusErrorName.invalidArgs),
                    ("no arguments", "Push", [], DBusErrorName.invalidArgs),
                    ("cover-only route pushed", "Push", [.string("login"), DBusValue.emptyParams], prefix + "NotPresentable"),
                    ("push-only route presented", "Present", [.string("orange"), DBusValue.emptyParams, .string("sheet")], prefix + "NotPresentable"),
                    ("unknown style", "Present", [.string("modal"), DBusValue.emptyParams, .string("popup")], prefix + "NotPresentable"),
                    ("pop at the root", "Pop", [], prefix + "AtRoot"),
                    ("back at the root", "Back", [], prefix + "AtRoot"),
                    ("dismiss with no layer", "Dismiss", [], prefix + "NoModal"),
                    ("pop to nothing", "PopTo", [.string("nowhere")], prefix + "NotFound"),
                    ("unknown tab", "SelectTab", [.string("nope")], prefix + "UnknownTab"),
                    ("tab of 4097 bytes", "SelectTab", [.string(long4097)], prefix + "LimitExceeded"),
                    ("empty SetStack", "SetStack", [.array(element: WireSignature.namedDictionary, [])], prefix + "InvalidParams"),
                    ("link to no route", "Open", [.string("/rainbow/nope")], prefix + "BadTarget"),
                    ("empty segment", "Open", [.string("/rainbow//orange")], prefix + "BadTarget"),
                    ("bad percent-encoding", "Open", [.string("/news/news-item;id=%zz")], prefix + "BadTarget"),
                    ("target of 4097 bytes", "Open", [.string(long4097)], prefix + "LimitExceeded"),
                    ("stale revision", "Apply", [Contract.ops([Contract.op("push", [("route", .string("orange"))])]), .uint64(before.revision + 5)], prefix + "StaleRevision"),
                    ("bogus revision", "Apply", [Contract.ops([Contract.op("push", [("route", .string("orange"))])]), .uint64(UInt64.max)], prefix + "StaleRevision"),
                    ("unknown op", "Apply", [Contract.ops([Contract.op("jump")]), .uint64(0)], prefix + "InvalidOperation"),
                    ("op missing its argument", "Apply", [Contract.ops([Contract.op("push")]), .uint64(0)], prefix + "InvalidOperation"),
                    ("257 ops", "Apply",
                     [Contract.ops(Array(repeating: Contract.op("push", [("route", .string("orange"))]), count: 257)), .uint64(0)],
                     prefix + "LimitExceeded"),
                    ("nothing to redo", "Redo", [], prefix + "NothingToRedo"),
                    ("unknown method", "Frobnicate", [], DBusErrorName.unknownMethod),
                ]
                var mismatches: [String] = []
                var tally: [String: Int] = [:]
                for (what, method, arguments, expected) in cases {
                    do {
                        try connection.navigator(method, arguments)
                        mismatches.append("\(what): \(method) succeeded, expected \(expected)")
                    } catch let error as DBusError {
                        tally[Contract.shortErrorName(error.name), default: 0] += 1
                        if error.name != expected { mismatches.append("\(what): \(method) answered \(error.name) (\(error.message)), expected \(expected)") }
                    }
                    let after = try connection.treeSnapshot()
                    if after != before { mismatches.append("\(what): the failed \(method) changed the state: \(before.summary) → \(after.summary)") }
                }
                var figures = Figures("boundaries")
                figures.add("calls", cases.count)
                figures.add("errors", tally: tally)
                figures.add("mismatches", mismatches.count)
                figures.print()
                return mismatches
            }
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
            #expect(run.navd.isRunning)
        }
    }
}
