import Navigation
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// How navd reads a route file, at start and on reload: the bytes through `RouteFileSource` (a
/// regular file of at most 1 MiB, anything else refused before it is opened, so no FIFO or device
/// can block the thread that reads), then the graph from those very bytes, with the command
/// line's limits over the file's.
public enum RouteFileLoading {
    /// The bytes of the route file at `path`, or why they cannot be read. A path where nothing is
    /// any more is "file is gone": the navigator that came from it keeps its graph and state.
    public static func read(_ path: String) -> Result<[UInt8], RouteFileError> {
        if isGone(path) { return .failure(gone(path)) }
        do {
            return .success(try RouteFileSource.read(path))
        } catch {
            return .failure(error)
        }
    }

    /// Whether nothing is at `path` any more (moved or deleted), as opposed to a file that is
    /// there but cannot be read.
    public static func isGone(_ path: String) -> Bool {
        access(path, F_OK) != 0 && errno == ENOENT
    }

    /// The error for a route file that is gone.
    public static func gone(_ path: String) -> RouteFileError {
        RouteFileError(
            file: path, keyPath: "",
            problem: "file is gone (moved or deleted); what came from it keeps its graph and state until it is back")
    }

    /// The graph in `file`, parsed from `bytes` as they were read (a read failure is passed on
    /// without touching the file again), with `limitOverrides` over its own limits and, with
    /// `resolvingAccess`, the names of its `access:` key resolved to ids (an unknown name fails).
    public static func graph(
        file: String, bytes: Result<[UInt8], RouteFileError>, limitOverrides: [(Limits.Key, Int)],
        resolvingAccess: Bool = true, leavingBehind leftovers: ParseLeftovers? = nil
    ) -> Result<RouteGraph, RouteFileError> {
        bytes.flatMap { bytes in
            do throws(RouteFileError) {
                var graph = try RouteGraph.load(yaml: String(decoding: bytes, as: UTF8.self), file: file, leavingBehind: leftovers)
                if resolvingAccess { graph = try graph.resolvingAccess(file: file) }
                return .success(withOverrides(graph, limitOverrides))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The graph and bytes of the route file at `path`: `read`, then `graph`.
    public static func load(
        _ path: String, limitOverrides: [(Limits.Key, Int)]
    ) -> Result<(graph: RouteGraph, bytes: [UInt8]), RouteFileError> {
        let bytes = read(path)
        return graph(file: path, bytes: bytes, limitOverrides: limitOverrides).flatMap { graph in
            bytes.map { (graph, $0) }
        }
    }

    /// `graph` with `limitOverrides` over its own limits.
    public static func withOverrides(_ graph: RouteGraph, _ limitOverrides: [(Limits.Key, Int)]) -> RouteGraph {
        var graph = graph
        for (key, value) in limitOverrides { graph.limits[key] = value }
        return graph
    }
}
