import Logging
import Navigation

extension NavigatorDaemon {
    /// Loads the snapshot and replays the journal after it; reconciles with a changed route graph.
    /// Returns whether anything was on disk. A corrupt or newer file is a `StartupError` and is left as it is.
    static func restore(
        into coordinator: inout Coordinator, from store: StateStore?, graph: RouteGraph, logger: Logger, compact: Bool = true
    ) throws(StartupError) -> Bool {
        guard let store else { return false }
        let contents: StoreContents
        do {
            contents = try store.load()
        } catch {
            throw StartupError(error.message)
        }
        guard contents.snapshot != nil || !contents.journal.isEmpty else {
            if compact {
                try? store.writeSnapshot(
                    revision: coordinator.revision, nextId: coordinator.state.nextIdNumber,
                    document: coordinator.state.encodedSnapshot(), graph: nil)
            }
            return false
        }
        if let snapshot = contents.snapshot {
            do {
                coordinator = Coordinator(graph: graph, restoring: try NavigationState.decodeSnapshot(snapshot.document))
            } catch {
                throw StartupError("the state file \(store.path) holds a snapshot navd cannot read (\(error)); move it away to start fresh, or run the navd that wrote it")
            }
        }
        var replayed = 0
        for stored in contents.journal {
            do {
                let record = try JournalRecord.decode(stored.payload)
                _ = try coordinator.replay(record)
                replayed += 1
            } catch {
                logger.error("journaled change at revision \(stored.revision) could not be replayed (\(error)); the state stops at revision \(coordinator.revision)")
                break
            }
        }
        let before = coordinator.revision
        for warning in coordinator.reconcile(at: now()).warnings {
            logger.warning("\(warning)")
        }
        if compact && (replayed > 0 || coordinator.revision != before) {
            do {
                try store.writeSnapshot(
                    revision: coordinator.revision, nextId: coordinator.state.nextIdNumber,
                    document: coordinator.state.encodedSnapshot(), graph: nil)
            } catch {
                throw StartupError("cannot write the restored state to \(store.path): \(error.message)")
            }
        }
        logger.info("restored revision \(coordinator.revision) (\(replayed) journaled change(s) replayed)")
        return true
    }
}
