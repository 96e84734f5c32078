import DBus
import Navigation

/// One snapshot, encoded off the reply path: the loop hands a thread of its own an immutable copy of a
/// navigator's committed state (a value: the loop's next change copies what it touches, never what the
/// thread reads), the thread encodes the document, and the loop stores it between batches
/// (`NavigatorDaemon.storeEncodedSnapshots`). Calls keep being read, committed and answered meanwhile:
/// every change after the copy is in the journal, above the snapshot's revision, so nothing is lost
/// whichever of the two ends first (docs/durability.md).
///
/// A stopping daemon abandons a job that has not finished (`NavigatorDaemon.close` writes the last
/// snapshot itself): its thread then finishes on its own and wakes nothing.
final class SnapshotJob: Sendable {
    /// The navigator whose state it encodes (read and written on the loop's thread only).
    nonisolated(unsafe) let navigator: ServedNavigator
    /// The revision of the copied state: every change up to it is committed.
    let revision: UInt64
    /// The id counter at that revision.
    let nextId: UInt64
    /// The graph the state was served under when copied; the snapshot is stored only if it still is.
    let graph: SavedGraph
    /// The copy to encode, until the thread that encodes it takes it: the copy is let go of there, and with it
    /// whatever only the copy still held (kept steps the loop trimmed meanwhile), which would otherwise be freed on
    /// the loop's thread when the job is.
    private let copy: PThreadMutex<Coordinator?>
    /// Run on the encoding thread before it encodes (tests hold an encoding up with it).
    private let beforeEncoding: (@Sendable () -> Void)?
    /// The newest step already stored in a segment when the job was made: the job's segment holds the steps after it.
    let segmentedThrough: UInt64?
    /// Whether the job writes a whole document, folding the stored segments into it (`StateStore.snapshotsWhole`).
    let whole: Bool
    /// The head and segment once encoded, and whether the loop gave up waiting for them.
    private let progress = PThreadMutex<(document: IncrementalSnapshot?, abandoned: Bool)>((nil, false))

    /// A job for `navigator`'s state as it is now (every change of it committed).
    init(_ navigator: ServedNavigator, beforeEncoding: (@Sendable () -> Void)? = nil) {
        self.navigator = navigator
        self.beforeEncoding = beforeEncoding
        copy = PThreadMutex(navigator.coordinator)
        revision = navigator.coordinator.revision
        nextId = navigator.coordinator.state.nextIdNumber
        graph = navigator.savedGraph
        segmentedThrough = navigator.store?.segmentedThrough
        whole = navigator.store?.snapshotsWhole ?? false
    }

    /// Whether the document is ready.
    var isEncoded: Bool { progress.withLock { $0.document != nil } }

    /// The head and segment (nil until encoded); the job lets go of them.
    func takeDocument() -> IncrementalSnapshot? {
        progress.withLock { progress in
            defer { progress.document = nil }
            return progress.document
        }
    }

    /// Encodes on a thread of its own, then wakes the loop through `waker` (unless the job was
    /// abandoned meanwhile); false if no thread could be started (the caller encodes it itself).
    func startEncoding(waking waker: Waker) -> Bool {
        DetachedThread.start(named: "navd-snapshot") { [self] in
            beforeEncoding?()
            let document = encodeCopy()
            progress.withLock { progress in
                progress.document = document
                // Under the lock: once `abandon()` returns, this thread never touches the waker,
                // whose eventfd closes with the loop's connection.
                if !progress.abandoned { waker.wake() }
            }
        }
    }

    /// Encodes on the calling thread.
    func encode() {
        let document = encodeCopy()
        progress.withLock { $0.document = document }
    }

    /// Takes the copy, encodes it and lets go of it, on the calling thread.
    private func encodeCopy() -> IncrementalSnapshot {
        guard let state = copy.withLock({ $0.take() }) else { preconditionFailure("a snapshot job is encoded once") }
        return state.encodedIncrementally(segmentedThrough: segmentedThrough, whole: whole)
    }

    /// The loop stops waiting: the encoding thread, when it finishes, wakes nothing.
    func abandon() {
        progress.withLock { $0.abandoned = true }
    }
}
