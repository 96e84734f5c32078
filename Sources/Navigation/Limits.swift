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
