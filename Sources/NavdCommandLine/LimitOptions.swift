import ArgumentParser
import Navigation

/// navd's limit options: one per `Limits.Key`, named by the route file's `limits:` key and described by
/// `Limits.Key.optionHelp`; each overrides the file's value and accepts what the file does.
struct LimitOptions: ParsableArguments {
    @Option(name: .limit(.maxPathDepth), help: .limit(.maxPathDepth)) var maxPathDepth: Int?
    @Option(name: .limit(.maxStackDepth), help: .limit(.maxStackDepth)) var maxStackDepth: Int?
    @Option(name: .limit(.maxParamsBytes), help: .limit(.maxParamsBytes)) var maxParamsBytes: Int?
    @Option(name: .limit(.maxApplyOps), help: .limit(.maxApplyOps)) var maxApplyOps: Int?
    @Option(name: .limit(.maxStringBytes), help: .limit(.maxStringBytes)) var maxStringBytes: Int?
    @Option(name: .limit(.maxUndo), help: .limit(.maxUndo)) var maxUndo: Int?
    @Option(name: .limit(.maxHistory), help: .limit(.maxHistory)) var maxHistory: Int?

    /// The limits given, by key in `Limits.Key` order, each checked like the route file's.
    func overrides() throws -> [(Limits.Key, Int)] {
        let given: [(Limits.Key, Int?)] = [
            (.maxPathDepth, maxPathDepth), (.maxStackDepth, maxStackDepth), (.maxParamsBytes, maxParamsBytes),
            (.maxApplyOps, maxApplyOps), (.maxStringBytes, maxStringBytes), (.maxUndo, maxUndo), (.maxHistory, maxHistory),
        ]
        var overrides: [(Limits.Key, Int)] = []
        for (key, value) in given {
            guard let number = value else { continue }
            if let problem = key.problem(with: number) { throw ValidationError("--\(key.rawValue) \(problem)") }
            overrides.append((key, number))
        }
        return overrides
    }
}

extension Limits.Key {
    /// What `navd --help` says of this limit's option.
    var optionHelp: ArgumentHelp {
        switch self {
        case .maxPathDepth: ArgumentHelp("Most screens on the path (LimitExceeded beyond).", valueName: "n")
        case .maxStackDepth: ArgumentHelp("Most screens in one stack.", valueName: "n")
        case .maxParamsBytes: ArgumentHelp("Most bytes of params in one call, all screens together.", valueName: "bytes")
        case .maxApplyOps: ArgumentHelp("Most ops in one Apply (and actions in one event).", valueName: "n")
        case .maxStringBytes: ArgumentHelp("Longest route, tab, target or key string.", valueName: "bytes")
        case .maxUndo: ArgumentHelp("Undo steps kept (0 turns undo off; at most 10000).", valueName: "n")
        case .maxHistory: ArgumentHelp("History entries kept (at most 100000).", valueName: "n")
        }
    }
}

extension NameSpecification {
    /// `--KEY`: a limit's option, by the route file's key.
    static func limit(_ key: Limits.Key) -> NameSpecification { .customLong(key.rawValue) }
}

extension ArgumentHelp {
    /// A limit option's help.
    static func limit(_ key: Limits.Key) -> ArgumentHelp { key.optionHelp }
}
