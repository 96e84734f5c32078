/// A value a change may alter, of those the service publishes as properties.
public enum ChangedProperty: Int, Sendable, CaseIterable {
    /// The revision, the path's depth, the top screen's route and id, the selected tab.
    case revision, depth, top, topID, selectedTab
    /// Whether Undo or Redo would succeed.
    case canUndo, canRedo
    /// The facts (any of them).
    case facts
    /// The tab names (only a reconciliation changes them).
    case tabs
    /// The graph's named states (only a reload changes them, with or without a change).
    case states
    /// The screen `Back` would leave on top.
    case backTarget
}

/// A set of `ChangedProperty`, one bit each: a change computes one, and the daemon reads it, without hashing (a
/// `Set` cost a hash and a resize per inserted property on every call). Iterates in declaration order.
public struct ChangedProperties: SetAlgebra, Sequence, Hashable, Sendable {
    public typealias Element = ChangedProperty
    private var bits: UInt32

    /// The empty set.
    public init() { bits = 0 }
    private init(bits: UInt32) { self.bits = bits }

    private static func bit(_ property: ChangedProperty) -> UInt32 { 1 << UInt32(property.rawValue) }

    /// Whether no property is in it.
    public var isEmpty: Bool { bits == 0 }
    /// Whether `member` is in it.
    public func contains(_ member: ChangedProperty) -> Bool { bits & Self.bit(member) != 0 }
    /// The properties in either set.
    public func union(_ other: Self) -> Self { Self(bits: bits | other.bits) }
    /// The properties in both sets.
    public func intersection(_ other: Self) -> Self { Self(bits: bits & other.bits) }
    /// The properties in exactly one of the sets.
    public func symmetricDifference(_ other: Self) -> Self { Self(bits: bits ^ other.bits) }
    /// Adds `other`'s properties.
    public mutating func formUnion(_ other: Self) { bits |= other.bits }
    /// Keeps only the properties `other` holds too.
    public mutating func formIntersection(_ other: Self) { bits &= other.bits }
    /// Keeps the properties in exactly one of the sets.
    public mutating func formSymmetricDifference(_ other: Self) { bits ^= other.bits }

    /// Adds `newMember`; `inserted` is false when it was already in.
    @discardableResult
    public mutating func insert(_ newMember: ChangedProperty) -> (inserted: Bool, memberAfterInsert: ChangedProperty) {
        defer { bits |= Self.bit(newMember) }
        return (!contains(newMember), newMember)
    }

    /// Removes `member`, returning it if it was in.
    @discardableResult
    public mutating func remove(_ member: ChangedProperty) -> ChangedProperty? {
        defer { bits &= ~Self.bit(member) }
        return contains(member) ? member : nil
    }

    /// Adds `newMember`, returning it if it was already in.
    @discardableResult
    public mutating func update(with newMember: ChangedProperty) -> ChangedProperty? {
        defer { bits |= Self.bit(newMember) }
        return contains(newMember) ? newMember : nil
    }

    /// The properties in declaration order.
    public func makeIterator() -> some IteratorProtocol<ChangedProperty> {
        let bits = bits
        return ChangedProperty.allCases.lazy.filter { bits & Self.bit($0) != 0 }.makeIterator()
    }
}

/// What one successful `perform` did: all the daemon needs to reply, signal and journal.
public struct Change: Sendable {
    /// The revision after the call (unchanged for a no-op).
    public let revision: UInt64
    /// True when the tree was left as it was: no signal, no history, no journal record.
    public let isNoOp: Bool
    /// The lower-case method name (`push`, `apply`, `undo`, `reconcile`, …).
    public let cause: String
    /// The id of the screen Push, Replace or Present made (nil otherwise).
    public let newScreenId: String?
    /// The properties whose values differ from before the call.
    public internal(set) var changedProperties: ChangedProperties
    /// The journal record of the change (nil for a no-op).
    public let record: JournalRecord?
    /// The selected tab after the call ("" when untabbed).
    public let selectedTab: String
    /// The visible path after the call (StackChanged's path).
    public let path: [Entry]
    /// The flows the change ended, to announce after StackChanged (FlowFinished): finished ones in the order
    /// they finished, then abandoned ones (output "").
    public var endedFlows: [FlowEnd] = []
    /// What the change did, as Send answers it (`ignored` for a no-op).
    public var outcome: Outcome = .applied
    /// The id of the flow Start started, or of the guard flow a redirect started (nil otherwise).
    public var newFlowID: String? = nil
    /// Sentences to log: a kept request dropped because it failed when resumed.
    public var notes: [String] = []
}

/// One line of the history: (revision, cause, time), as `History` returns it.
public struct HistoryEntry: Hashable, Sendable {
    /// The revision the change made.
    public var revision: UInt64
    /// The lower-case method name.
    public var cause: String
    /// Microseconds since the epoch, as given to `perform`.
    public var time: Int64

    /// A history line.
    public init(revision: UInt64, cause: String, time: Int64) {
        self.revision = revision
        self.cause = cause
        self.time = time
    }
}

/// A committed change as the journal keeps it: replaying it at its entry's `time` on the state before it
/// reproduces the entry's `revision`.
public struct JournalRecord: Hashable, Sendable {
    /// The change's history line: the revision it made, the method's name, the time given to `perform`.
    public let entry: HistoryEntry
    /// The operation as requested.
    public let operation: Operation
    /// The request and the caller behind the change, as the service recorded them (nil in version-3 records).
    public var changeRecord: ChangeRecord?
}
