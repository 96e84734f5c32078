/// The bounds navd enforces (the contract's limits table, plus undo and history sizes); each starts at the
/// contract's default, which the route file's `limits:` and navd's options may change.
public struct Limits: Hashable, Sendable {
    /// Screens on the visible path.
    public var maxPathDepth = 128
    /// Screens in one stack.
    public var maxStackDepth = 128
    /// Estimated encoded size of one call's params, all screens together.
    public var maxParamsBytes = 65536
    /// Operations in one Apply.
    public var maxApplyOps = 256
    /// Bytes in a route, tab, target or key string.
    public var maxStringBytes = 4096
    /// Undo steps kept (at least this many; up to twice as many between trims).
    public var maxUndo = 100
    /// History entries kept and reported.
    public var maxHistory = 1000

    /// Limits with the contract's defaults, and `values` in place of those it names.
    public init(_ values: [Key: Int] = [:]) {
        for (key, value) in values { self[key] = value }
    }
}

extension Limits {
    /// One limit by its public name: the route file's `limits:` key, which navd's `--KEY` option shares.
    public enum Key: String, Sendable, CaseIterable {
        case maxPathDepth = "max-path-depth"
        case maxStackDepth = "max-stack-depth"
        case maxParamsBytes = "max-params-bytes"
        case maxApplyOps = "max-apply-ops"
        case maxStringBytes = "max-string-bytes"
        case maxUndo = "max-undo"
        case maxHistory = "max-history"

        /// The least value accepted (0 for `max-undo` turns undo off; 0 for `max-history` keeps the newest entry only).
        public var minimum: Int {
            switch self {
            case .maxParamsBytes: 4
            case .maxUndo, .maxHistory: 0
            default: 1
            }
        }

        /// The greatest value accepted: undo steps and history entries are held in memory, so they are bounded.
        public var maximum: Int {
            switch self {
            case .maxUndo: 10_000
            case .maxHistory: 100_000
            default: Int(Int32.max)
            }
        }

        /// Why `value` cannot be this limit ("must be at most 10000, not 20000"), or nil when it can.
        public func problem(with value: Int) -> String? {
            if value < minimum { return "must be at least \(minimum), not \(value)" }
            if value > maximum { return "must be at most \(maximum), not \(value)" }
            return nil
        }
    }

    /// The limit named by `key`.
    public subscript(key: Key) -> Int {
        get { self[keyPath: key.field] }
        set { self[keyPath: key.field] = newValue }
    }

    /// Every limit with its public name, in the order of `Key.allCases` (GetLimits answers these).
    public var named: [(name: String, value: Int)] { Key.allCases.map { ($0.rawValue, self[$0]) } }
}

extension Limits.Key {
    /// The stored field this key names: the one place a key meets its field.
    var field: WritableKeyPath<Limits, Int> {
        switch self {
        case .maxPathDepth: \.maxPathDepth
        case .maxStackDepth: \.maxStackDepth
        case .maxParamsBytes: \.maxParamsBytes
        case .maxApplyOps: \.maxApplyOps
        case .maxStringBytes: \.maxStringBytes
        case .maxUndo: \.maxUndo
        case .maxHistory: \.maxHistory
        }
    }
}
