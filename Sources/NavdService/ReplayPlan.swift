import Navigation

/// What `navd --ephemeral --from-recording FILE` serves (docs/devtools.md, "Recordings"): the recording's
/// start state under the graph it was answered under, and for each recorded change the revision and id
/// counter it starts from and the graph in force for it, so that a replay's revisions and ids compare
/// with the recording's although no-op calls and put-aside rows consumed some in the original.
public struct ReplayPlan: Sendable {
    /// A route graph a recording names, loaded (its `access:` keys dropped: a replay serves only its
    /// own private bus), with where it came from (`file` nil: the embedded demo graph).
    public struct Graph: Sendable {
        /// The graph.
        public var graph: RouteGraph
        /// The route file's path as recorded; nil for the demo graph.
        public var file: String?
        /// The route file's text as recorded; nil for the demo graph.
        public var bytes: [UInt8]?

        /// A graph loaded from `file`'s `bytes` (both nil: the demo graph), without its `access:` keys.
        public init(graph: RouteGraph, file: String?, bytes: [UInt8]?) {
            var graph = graph
            graph.access = nil
            self.graph = graph
            self.file = file
            self.bytes = bytes
        }
    }

    /// One recorded change, as far as the replaying navd needs it.
    public struct Step: Sendable {
        /// The revision the change made: the replayed change starts at the one before.
        public var revision: UInt64
        /// The id counter before the change.
        public var nextId: UInt64
        /// Whether it was a reconciliation (replayed as a reload of `graph`).
        public var isReconcile: Bool
        /// The graph it was answered under when it differs from the one before; nil otherwise (and
        /// always under a replay's own route file).
        public var graph: Graph?

        /// A step with the given parts.
        public init(revision: UInt64, nextId: UInt64, isReconcile: Bool, graph: Graph?) {
            self.revision = revision
            self.nextId = nextId
            self.isReconcile = isReconcile
            self.graph = graph
        }
    }

    /// The state the first recorded change started from.
    public var start: NavigationState
    /// The graph the start state was answered under.
    public var startGraph: Graph
    /// The recorded changes, oldest first.
    public var steps: [Step]
    /// Whether one route file (navd's `--routes`) replaces every recorded graph: the start state is then
    /// repaired to it (a `reconcile` at start: the first difference) and a recorded reload reloads it.
    public var underRoutesFile: Bool

    /// A plan with the given parts.
    public init(start: NavigationState, startGraph: Graph, steps: [Step], underRoutesFile: Bool) {
        self.start = start
        self.startGraph = startGraph
        self.steps = steps
        self.underRoutesFile = underRoutesFile
    }
}

/// How far a replaying navd is in its plan: the recorded change the next change is to match.
final class ReplayCursor {
    let plan: ReplayPlan
    /// The index of the next recorded change in `plan.steps`.
    private(set) var next = 0

    init(_ plan: ReplayPlan) { self.plan = plan }

    /// The recorded change the next change is to match; nil past the last.
    var step: ReplayPlan.Step? { next < plan.steps.count ? plan.steps[next] : nil }

    /// A change was made: the next one matches the following recorded change.
    func advance() { next += 1 }
}
