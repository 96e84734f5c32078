import Testing
@testable import Navigation
import RouteFiles

/// `max-undo` and `max-history` were unbounded: a huge value loaded, and the first change trapped
/// computing `2 * keep` in `BoundedStack`. Both limits now have an upper bound, checked where they are given.
@Suite(.timeLimit(.minutes(1)))
struct HugeUndoLimitRegressionTests {
    func limitsError(_ limits: String) -> RouteFileError? {
        do {
            _ = try RouteGraph.load(yaml: "root: home\nlimits:\n\(limits)\nroutes:\n  home: {}\n  next: {}\n", file: "routes.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func hugeUndoAndHistoryLimitsAreRefusedByTheLoader() {
        #expect(limitsError("  max-undo: 9223372036854775807")?.description
            == "routes.yaml:3: limits.max-undo: must be at most 10000, not 9223372036854775807")
        #expect(limitsError("  max-history: 100001")?.description
            == "routes.yaml:3: limits.max-history: must be at most 100000, not 100001")
        #expect(limitsError("  max-undo: 10000\n  max-history: 100000") == nil)
        #expect(limitsError("  max-undo: 0") == nil)  // 0 turns undo off, here and on navd's command line
    }

    @Test func theBoundsAreTheOnesNavdChecksToo() {
        #expect(Limits.Key.maxUndo.problem(with: 10_001) == "must be at most 10000, not 10001")
        #expect(Limits.Key.maxUndo.problem(with: 0) == nil)
        #expect(Limits.Key.maxHistory.problem(with: -1) == "must be at least 0, not -1")
        #expect(Limits.Key.maxApplyOps.problem(with: 0) == "must be at least 1, not 0")
        #expect(Limits.Key(rawValue: "max-apply-ops") == .maxApplyOps)
    }

    @Test func aStackWithAHugeKeepDoesNotOverflow() {
        var stack = BoundedStack<Int>()
        for value in 0..<3 { stack.push(value, keep: Int.max) }
        #expect(stack.all == [2, 1, 0])
    }

    @Test func undoOffKeepsNoStep() throws {
        var coordinator = Coordinator(graph: try RouteGraph.load(yaml: "root: home\nlimits: { max-undo: 0 }\nroutes:\n  home: {}\n  next: {}\n", file: "r.yaml"))
        coordinator.must(push("next"))
        #expect(!coordinator.canUndo)
        #expect(coordinator.refuse(.undo)?.name == "NothingToUndo")
    }
}
