/// How hard navd works to keep an answered change on disk.
///
/// Both levels use SQLite's write-ahead log; they differ in when it is flushed to the device.
public enum Durability: String, Sendable, CaseIterable {
    /// `synchronous=NORMAL`: a commit has reached the operating system before it returns, so it
    /// survives the process being killed at any moment (not a power loss or kernel crash).
    case normal
    /// `synchronous=FULL`: an fsync per commit, so a commit also survives power loss.
    case full
}

/// One journaled change: the revision it produced, the navigator's id counter after it, and the
/// model's opaque encoding of it.
public struct StoredRecord: Sendable, Hashable {
    /// The revision the change produced; records are stored and returned in ascending order.
    public var revision: UInt64
    /// The navigator's id counter after the change (`NavigationState.nextIdNumber`), kept in a
    /// column of its own so that even a row whose payload cannot be read tells how far ids went.
    /// 0 for rows written before schema 2.
    public var nextId: UInt64
    /// The change as the model encoded it; the store never looks inside.
    public var payload: [UInt8]
}

/// A failure of the state store; `message` says which file, what happened and what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for callers that react differently (refuse to start vs.
    /// answer `StorageFailed`).
    public enum Kind: String, Sendable {
        /// The state directory or file could not be created or opened.
        case cannotOpen
        /// The file is not a navd state file, or it is corrupt; it was left untouched.
        case unreadable
        /// The file was written by a newer navd; it was left untouched.
        case newerSchema
        /// A write (append or snapshot) failed; nothing of it was stored, the store is usable.
        case writeFailed
        /// Reading the contents failed.
        case readFailed
        /// The store was closed.
        case closed
    }

    /// The kind of failure.
    public var kind: Kind
    /// A full sentence for a person: the file, what happened, and what to do about it.
    public var message: String

    /// An error of `kind` described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// When the journal should be folded into a new snapshot.
///
/// Writing a snapshot costs time proportional to the state, so it is done only after enough
/// journal has accumulated to pay for it: per change, the amortised cost stays proportional to
/// the change, and both the load time and the database size stay bounded.
public struct SnapshotPolicy: Sendable, Hashable {
    /// Snapshot once the journal holds this many rows, whatever their size (bounds load time).
    public var maximumJournalRows: Int
    /// Snapshot once the journal is larger in bytes than the snapshot, provided it has at least
    /// this many rows (so tiny states are not snapshotted on every change).
    public var minimumJournalRows: Int

    /// A policy with the given thresholds; the defaults are 1,000 and 128 rows.
    public init(maximumJournalRows: Int = 1_000, minimumJournalRows: Int = 128) {
        self.maximumJournalRows = maximumJournalRows
        self.minimumJournalRows = minimumJournalRows
    }

    /// Whether a journal of `rows` rows and `journalBytes` payload bytes after a snapshot of
    /// `snapshotBytes` bytes should be compacted now.
    public func shouldSnapshot(rows: Int, journalBytes: Int, snapshotBytes: Int) -> Bool {
        rows >= maximumJournalRows || (rows >= minimumJournalRows && journalBytes > snapshotBytes)
    }
}
