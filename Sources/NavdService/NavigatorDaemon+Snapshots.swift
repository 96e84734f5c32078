import Navigation

/// Snapshots off the reply path: a commit that makes a navigator's journal long enough starts a
/// `SnapshotJob` (the state copied as a value, encoded on a thread of its own), and the loop stores the
/// document between batches, once it is ready. No call waits for the encoding; the store's write of the
/// finished document is one transaction of its bytes and the delete of the rows it covers.
extension NavigatorDaemon {
    /// Starts a snapshot of `navigator` when its store asks for one and none is under way; called after
    /// its changes are committed (the copy holds only durable state).
    func startSnapshotIfDue(_ navigator: ServedNavigator) {
        guard let store = navigator.store, store.shouldSnapshot,
              !snapshotsInFlight.contains(where: { $0.navigator === navigator }) else { return }
        let job = SnapshotJob(navigator, beforeEncoding: beforeEncodingSnapshot)
        // The job's copy keeps the mark of the snapshot before; the next one folds from this one's lists.
        navigator.coordinator.markListsForSnapshot()
        if !job.startEncoding(waking: connection.waker) {
            logger.warning("\(navigator.logPrefix)could not start a thread to encode a snapshot; encoding it on the loop")
            job.encode()
        }
        snapshotsInFlight.append(job)
    }

    /// Stores every snapshot whose document is ready, unless it is stale: its navigator is no longer served,
    /// a newer snapshot was written meanwhile (a reload, say), or the navigator's graph changed since the
    /// copy (the journal rows after a snapshot must be made under the graph it records).
    func storeEncodedSnapshots() {
        var waiting: [SnapshotJob] = []
        defer { snapshotsInFlight = waiting }
        for job in snapshotsInFlight {
            guard job.isEncoded else {
                waiting.append(job)
                continue
            }
            let navigator = job.navigator
            guard let store = navigator.store, navigators[navigator.path.rawValue] === navigator,
                  (store.snapshotRevision ?? 0) < job.revision, navigator.savedGraph == job.graph else { continue }
            guard let encoded = job.takeDocument() else { continue }
            storeSnapshot(
                encoded.head, revision: job.revision, nextId: job.nextId, graph: job.graph, of: navigator,
                segment: encoded.whole ? .none : .add(newest: encoded.newest, document: encoded.segment, keepFrom: encoded.keepFrom))
            // The encoded document was large and short-lived: give its pages back to the system.
            releaseFreedMemory()
        }
    }

    /// Abandons `navigator`'s snapshot under way, if any (its thread finishes on its own and wakes nothing).
    func abandonSnapshot(of navigator: ServedNavigator) {
        for job in snapshotsInFlight where job.navigator === navigator { job.abandon() }
        snapshotsInFlight.removeAll { $0.navigator === navigator }
    }

    /// Writes a snapshot of `navigator`'s state as it is now, on this thread (stopping, a navigator going
    /// away), in place of any under way.
    func writeSnapshot(_ navigator: ServedNavigator) {
        abandonSnapshot(of: navigator)
        storeSnapshot(
            navigator.coordinator.encodedSnapshot(), revision: navigator.coordinator.revision,
            nextId: navigator.coordinator.state.nextIdNumber, graph: navigator.savedGraph, of: navigator)
        releaseFreedMemory()
    }

    /// Stores `document`, the state of `navigator` at `revision`, as its snapshot; a failure is logged (the
    /// journal keeps every change).
    /// A whole document (`segment` `.none`) clears the segments; an incremental one adds its segment.
    private func storeSnapshot(
        _ document: [UInt8], revision: UInt64, nextId: UInt64, graph: SavedGraph, of navigator: ServedNavigator,
        segment: StateStore.SegmentWrite = .none
    ) {
        guard let store = navigator.store else { return }
        do {
            try store.writeSnapshot(revision: revision, nextId: nextId, document: document, graph: graph, segment: segment)
        } catch {
            logger.warning("\(navigator.logPrefix)could not write a snapshot (the journal keeps every change, so nothing is lost): \(error.message)")
        }
    }
}
