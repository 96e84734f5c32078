/// The route graph a snapshot (and every journal row after it) was written under, as navd read
/// it: enough to rebuild that graph at the next start even if the route file changed meanwhile.
public struct SavedGraph: Sendable, Hashable {
    /// Where the graph came from: `"demo"` for the embedded demo graph, else the route file's path.
    public var origin: String
    /// The route file's bytes as they were loaded (the demo's YAML for `"demo"`).
    public var source: [UInt8]
    /// The command-line limit overrides in a canonical text (`""` when there are none).
    public var limitOverrides: String

    /// A graph read from `origin`'s `source` bytes, with `limitOverrides` applied over them.
    public init(origin: String, source: [UInt8], limitOverrides: String) {
        self.origin = origin
        self.source = source
        self.limitOverrides = limitOverrides
    }
}

/// Everything needed to rebuild the state: the latest snapshot, the graph it was written under,
/// the changes made after it, and how far revisions and ids ever went.
public struct StoreContents: Sendable {
    /// The latest snapshot (its revision and the model's encoding of the whole state), if any.
    public var snapshot: (revision: UInt64, document: [UInt8])?
    /// The journaled changes with a revision greater than the snapshot's, ascending. Every one
    /// was made under ``graph``.
    public var journal: [StoredRecord]
    /// The graph the snapshot was written under; nil without a snapshot, for a file written
    /// before schema 2, or when the writer did not give one.
    public var graph: SavedGraph?
    /// The highest revision in the snapshot, the journal and the rows kept aside (0 when empty):
    /// the next revision navd answers must be above it.
    public var highestRevision: UInt64
    /// The highest id counter in the snapshot, the journal and the rows kept aside (0 when
    /// unknown): ids below it may have been handed out.
    public var highestNextId: UInt64
    /// How many rows were ever kept aside (see ``StateStore/setAside(fromRevision:reason:)``).
    public var asideCount: Int
    /// The kept steps stored apart from the snapshot, segment documents newest first (schema 4).
    public var segments: [[UInt8]] = []

    /// Contents made of `snapshot`, `graph` and `journal`; the highest revision and id counter
    /// default to what those hold.
    public init(
        snapshot: (revision: UInt64, document: [UInt8])?, journal: [StoredRecord], graph: SavedGraph? = nil,
        highestRevision: UInt64? = nil, highestNextId: UInt64? = nil, asideCount: Int = 0
    ) {
        self.snapshot = snapshot
        self.journal = journal
        self.graph = graph
        self.highestRevision = highestRevision ?? max(snapshot?.revision ?? 0, journal.last?.revision ?? 0)
        self.highestNextId = highestNextId ?? journal.map(\.nextId).max() ?? 0
        self.asideCount = asideCount
    }
}
