import Navigation
import RouteFiles

/// The route graph a navigator's state is saved under (`SavedGraph`, stored with each snapshot),
/// made and read back in one place: what a navigator serves is recorded as the bytes it was read
/// from and the command line's limits over them, and start-up rebuilds that very graph from the
/// record, through the same bounded loader, even when the route file has changed or gone since.
extension RouteFileLoading {
    /// The canonical text of command-line limit overrides: `key=value` for each limit given (the
    /// last value when one is given twice, as `withOverrides` applies them), in `Limits.Key`
    /// order, joined by `,`; `""` when there are none. Equal overrides always give equal texts.
    public static func overridesText(_ overrides: [(Limits.Key, Int)]) -> String {
        var values: [Limits.Key: Int] = [:]
        for (key, value) in overrides { values[key] = value }
        return Limits.Key.allCases.compactMap { key in values[key].map { "\(key.rawValue)=\($0)" } }
            .joined(separator: ",")
    }

    /// The overrides an `overridesText` holds, or why the text is not one (an unknown key, a
    /// value that is not a number, or one the limit does not accept).
    public static func overrides(fromText text: String) -> Result<[(Limits.Key, Int)], RouteFileError> {
        var overrides: [(Limits.Key, Int)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let key = Limits.Key(rawValue: String(parts[0])), let value = Int(parts[1]),
                  key.problem(with: value) == nil
            else {
                return .failure(RouteFileError(
                    file: "<saved limit overrides>", keyPath: "",
                    problem: "'\(item)' is not a limit as KEY=VALUE (in '\(text)')"))
            }
            overrides.append((key, value))
        }
        return .success(overrides)
    }

    /// The record of a graph read from the route file `file`'s `bytes` (nil file: the embedded
    /// demo graph, whatever `bytes` holds) with `overrides` over its limits.
    public static func savedGraph(file: String?, bytes: [UInt8]?, overrides: [(Limits.Key, Int)]) -> SavedGraph {
        guard let file, let bytes else {
            return SavedGraph(origin: SavedGraph.demoOrigin, source: SavedGraph.demoSource, limitOverrides: overridesText(overrides))
        }
        return SavedGraph(origin: file, source: bytes, limitOverrides: overridesText(overrides))
    }

    /// The graph `saved` records: its bytes parsed as a route file named by its origin, with its
    /// own overrides, or (given `overrides`) with those instead. Fails, saying why, when the bytes
    /// or the overrides no longer load. Its `access:` names are resolved only with `resolvingAccess`
    /// (a graph served, not one replayed under: a user deleted since must not stop a replay).
    public static func graph(
        of saved: SavedGraph, overrides: [(Limits.Key, Int)]? = nil, resolvingAccess: Bool = false
    ) -> Result<RouteGraph, RouteFileError> {
        let limits: [(Limits.Key, Int)]
        if let overrides {
            limits = overrides
        } else {
            switch Self.overrides(fromText: saved.limitOverrides) {
            case .success(let parsed): limits = parsed
            case .failure(let error): return .failure(error)
            }
        }
        let file = saved.isDemo ? "<demo>" : saved.origin
        return graph(file: file, bytes: .success(saved.source), limitOverrides: limits, resolvingAccess: resolvingAccess)
    }
}

extension SavedGraph {
    /// The origin recorded for the embedded demo graph.
    public static let demoOrigin = "demo"
    /// The bytes recorded for the embedded demo graph: its YAML, as this navd embeds it.
    public static let demoSource = Array(RouteGraph.demoYAML.utf8)

    /// Whether the graph is the embedded demo graph rather than a route file's.
    public var isDemo: Bool { origin == Self.demoOrigin }

    /// Whether `other` records the same graph: the same bytes under the same overrides (where
    /// they were read from does not change the graph).
    public func describesSameGraph(as other: SavedGraph) -> Bool {
        source == other.source && limitOverrides == other.limitOverrides
    }
}
