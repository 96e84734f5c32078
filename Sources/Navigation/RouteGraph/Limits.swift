/// The bounds navd enforces (the contract's limits table, plus undo and history sizes).
public struct Limits: Hashable, Sendable {
    /// Screens on the visible path.
    public var maxPathDepth: Int
    /// Screens in one stack.
    public var maxStackDepth: Int
    /// Estimated encoded size of one call's params, all screens together.
    public var maxParamsBytes: Int
    /// Operations in one Apply.
    public var maxApplyOps: Int
    /// Bytes in a route, tab, target or key string.
    public var maxStringBytes: Int
    /// Undo steps kept (at least this many; up to twice as many between trims).
    public var maxUndo: Int
    /// History entries kept and reported.
    public var maxHistory: Int

    /// Limits with the contract's defaults unless given.
    public init(
        maxPathDepth: Int = 128, maxStackDepth: Int = 128, maxParamsBytes: Int = 65536,
        maxApplyOps: Int = 256, maxStringBytes: Int = 4096, maxUndo: Int = 100, maxHistory: Int = 1000
    ) {
        self.maxPathDepth = maxPathDepth
        self.maxStackDepth = maxStackDepth
        self.maxParamsBytes = maxParamsBytes
        self.maxApplyOps = maxApplyOps
        self.maxStringBytes = maxStringBytes
        self.maxUndo = maxUndo
        self.maxHistory = maxHistory
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
        get {
            switch key {
            case .maxPathDepth: maxPathDepth
            case .maxStackDepth: maxStackDepth
            case .maxParamsBytes: maxParamsBytes
            case .maxApplyOps: maxApplyOps
            case .maxStringBytes: maxStringBytes
            case .maxUndo: maxUndo
            case .maxHistory: maxHistory
            }
        }
        set {
            switch key {
            case .maxPathDepth: maxPathDepth = newValue
            case .maxStackDepth: maxStackDepth = newValue
            case .maxParamsBytes: maxParamsBytes = newValue
            case .maxApplyOps: maxApplyOps = newValue
            case .maxStringBytes: maxStringBytes = newValue
            case .maxUndo: maxUndo = newValue
            case .maxHistory: maxHistory = newValue
            }
        }
    }
}
