#if canImport(Glibc)
import Glibc
#endif
import ChildProcesses
import Navigation
import Recording
import RouteFiles

extension ReplayPlan {
    /// The plan of the recording in the file at `path`, or a `StartupError` naming the file and the problem
    /// (navd exits 2 on it): a file that cannot be read or is not a recording, a start state navd cannot read,
    /// revisions that do not follow each other, a recorded graph that does not load, a start state that graph would repair.
    public static func load(recordingAt path: String, underRoutesFile: Bool) throws(StartupError) -> ReplayPlan {
        guard let bytes = FileText.bytes(atPath: path) else {
            throw StartupError("\(path): cannot be read: \(String(cString: strerror(errno)))")
        }
        do {
            let recording = try Recording.decode(String(decoding: bytes, as: UTF8.self))
            return try ReplayPlan(recording: recording, underRoutesFile: underRoutesFile)
        } catch let error as StartupError {
            throw StartupError("\(path): \(error.message)")
        } catch {
            throw StartupError("\(path): \(error)")
        }
    }

    /// The plan of `recording`: its start state and graph, and per change its revision, id counter and graph
    /// (none under a route file of navd's own, which replaces them all).
    public init(recording: Recording, underRoutesFile: Bool) throws(StartupError) {
        let state: NavigationState
        do {
            state = try NavigationState.decodeSnapshot(recording.start.snapshot)
        } catch {
            throw StartupError("its start state cannot be read (\(error))")
        }
        guard state.revision == recording.start.revision else {
            throw StartupError("its start state is at revision \(state.revision), not at the start's revision \(recording.start.revision)")
        }
        var steps: [Step] = []
        var previous = recording.start.revision
        for change in recording.changes {
            guard change.revision > previous else {
                throw StartupError("the change at revision \(change.revision) follows revision \(previous): revisions must increase")
            }
            previous = change.revision
            let graph = underRoutesFile ? nil : try change.routes.map { routes throws(StartupError) in
                try Self.graph(routes, what: "the routes of the change at revision \(change.revision)")
            }
            steps.append(Step(revision: change.revision, nextId: change.nextId, isReconcile: change.method.isEmpty, graph: graph))
        }
        let startGraph = try Self.graph(recording.routes, what: "its routes")
        // A crafted start state its own graph would refuse (a route it lacks, params it does not declare)
        // is refused, not repaired: the replay would not start where the recording says it did.
        if let misfit = Coordinator(graph: startGraph.graph, restoring: state).misfits.first {
            throw StartupError("its start state does not fit its routes: \(misfit)")
        }
        self.init(start: state, startGraph: startGraph, steps: steps, underRoutesFile: underRoutesFile)
    }

    /// The graph `routes` names, loaded as navd loads a route file (without its `access:` keys).
    private static func graph(_ routes: RecordingRoutes, what: String) throws(StartupError) -> Graph {
        switch routes {
        case .demo:
            return Graph(graph: RouteGraph.demo, file: nil, bytes: nil)
        case .file(let path, let text):
            let saved = SavedGraph(origin: path, source: Array(text.utf8), limitOverrides: "")
            switch RouteFileLoading.graph(of: saved) {
            case .success(let graph): return Graph(graph: graph, file: path, bytes: saved.source)
            case .failure(let error): throw StartupError("\(what) do not load: \(error)")
            }
        }
    }
}
