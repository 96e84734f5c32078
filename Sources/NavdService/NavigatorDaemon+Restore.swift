import Logging
import Navigation

// Start-up: "replay first, repair after" (`docs/durability.md#edits-while-navd-is-down`). Each navigator's snapshot and journal are
// replayed under the route graph they were written under (kept with the snapshot), and only then
// fitted to today's graph, as one `reconcile` revision; a row that does not replay even under its
// own graph is set aside, and revisions and ids go on past everything the store ever held.

extension NavigatorDaemon {
    /// What start-up rebuilt for one navigator.
    struct RestoredNavigator {
        /// The state, under the graph the navigator serves.
        var coordinator: Coordinator
        /// Where that graph came from.
        var source: GraphSource
        /// Whether the state came from disk (start-up cause `restore`) or is fresh (`start`).
        var restored: Bool
    }

    /// Restores the default navigator: from the route file navd was given or found, else (when
    /// that file is gone, or there is none) from the graph its state was saved under if that came
    /// from a route file, else on the demo graph (`docs/durability.md#gone-route-files`).
    static func restoreDefault(from store: StateStore?, options: ServiceOptions, logger: Logger) throws(StartupError) -> RestoredNavigator {
        let contents = try load(store)
        let overrides = options.limitOverrides
        var source = GraphSource(
            graph: options.graph, routeFile: options.graphSource?.file, bytes: options.graphSource?.bytes, overrides: overrides)
        if options.graphSource == nil, let saved = contents?.graph, !saved.isDemo,
           options.missingRouteFile == nil || options.missingRouteFile == saved.origin {
            // The file is gone, not changed: serve what the state was made under, as if the file
            // were still there (a Reload then finds it back, or says it is gone).
            switch RouteFileLoading.graph(of: saved, overrides: overrides, resolvingAccess: true) {
            case .success(let graph):
                source = GraphSource(graph: graph, routeFile: saved.origin, bytes: saved.source, overrides: overrides)
                logger.warning("route file \(saved.origin) is gone (moved or deleted); serving the route graph the state was saved under, as it was when last read; put the file back and reload (SIGHUP or navctl reload)")
            case .failure(let error):
                throw StartupError("route file \(saved.origin) is gone and the copy saved with the state in \(store?.path ?? "?") does not load (\(error)); put the file back, or move the state file away to start fresh")
            }
        } else if let missing = options.missingRouteFile {
            let madeUnder = contents?.graph.map { $0.isDemo ? "the demo graph" : "route file \($0.origin)" }
            throw StartupError("\(RouteFileLoading.gone(missing))\(madeUnder.map { "; the saved state was made under \($0), not this file" } ?? "")")
        }
        return try restore(contents, from: store, source: source, label: "", logger: logger)
    }

    /// Reads everything `store` holds (nil for an ephemeral navd).
    static func load(_ store: StateStore?) throws(StartupError) -> StoreContents? {
        do {
            return try store?.load()
        } catch {
            throw StartupError(error.message)
        }
    }

    /// Rebuilds the state `contents` holds and fits it to `source.graph`. With `compact` (start-up)
    /// the rows that did not replay are set aside and the result is written as a snapshot under
    /// `source.saved`, so that the journal after it is made under that graph; without it (re-reading
    /// after a failed commit) nothing is written. A snapshot navd cannot read, or a store it cannot
    /// write, is a `StartupError`, and the file is left as it is.
    static func restore(
        _ contents: StoreContents?, from store: StateStore?, source: GraphSource, label: String, logger: Logger,
        compact: Bool = true
    ) throws(StartupError) -> RestoredNavigator {
        guard let store, let contents else {
            return RestoredNavigator(coordinator: Coordinator(graph: source.graph), source: source, restored: false)
        }
        let stored = contents.snapshot != nil || !contents.journal.isEmpty || contents.highestRevision > 0
        if !stored {
            let fresh = Coordinator(graph: source.graph)
            if compact { try write(fresh, to: store, under: source.saved) }
            return RestoredNavigator(coordinator: fresh, source: source, restored: false)
        }
        let input = RestoreInput(
            snapshot: contents.snapshot?.document, journal: contents.journal.map { JournalRow(revision: $0.revision, payload: $0.payload) },
            highestRevision: contents.highestRevision, highestNextId: contents.highestNextId, segments: contents.segments)
        let restored: Restored
        do {
            restored = try Coordinator.restore(
                input, savedGraph: savedGraph(contents.graph, for: source, label: label, logger: logger),
                currentGraph: source.graph, at: now())
        } catch {
            throw StartupError("the state file \(store.path) holds a snapshot navd cannot read (\(error)); move it away to start fresh, or run the navd that wrote it")
        }
        if let stop = restored.stopped {
            let after = contents.journal.count - restored.replayed - 1
            let rows = after == 0 ? "it is" : "it and the \(after) row(s) after it are"
            logger.error("\(label)journaled change at revision \(stop.revision) could not be replayed (\(stop.reason)); \(rows) kept aside in \(store.path) (table journal_aside), and the state is restored up to revision \(restored.replayedRevision)")
            if compact {
                do {
                    try store.setAside(fromRevision: stop.revision, reason: stop.reason)
                } catch {
                    throw StartupError(error.message)
                }
            }
        }
        for warning in restored.warnings { logger.warning("\(label)\(warning)") }
        var coordinator = restored.coordinator
        if let change = restored.reconciliation.change {
            coordinator.record(reconcileRecord(reason: "start"), forRevision: change.revision)
        }
        let changed = restored.replayed > 0 || coordinator.revision != contents.snapshot?.revision
            || restored.stopped != nil || contents.graph != source.saved
        if compact && changed { try write(coordinator, to: store, under: source.saved) }
        logger.info("\(label)restored revision \(coordinator.revision) (\(restored.replayed) journaled change(s) replayed)")
        return RestoredNavigator(coordinator: coordinator, source: source, restored: true)
    }

    /// The graph `saved` records, for replaying the state saved under it: `source`'s own graph when
    /// it records the same one; the current graph (logged) when none was saved (a file written
    /// before graphs were kept) or the saved one no longer loads.
    static func savedGraph(_ saved: SavedGraph?, for source: GraphSource, label: String, logger: Logger) -> RouteGraph {
        guard let saved else {
            logger.warning("\(label)the saved state does not say which route graph it was made under (an older navd wrote it); it is replayed under the current one, and changes that no longer fit stop the replay")
            return source.graph
        }
        if saved.describesSameGraph(as: source.saved) { return source.graph }
        switch RouteFileLoading.graph(of: saved) {
        case .success(let graph):
            return graph
        case .failure(let error):
            logger.warning("\(label)the route graph the state was saved under (from \(saved.origin)) no longer loads (\(error)); the state is replayed under the current one, and changes that no longer fit stop the replay")
            return source.graph
        }
    }

    /// Writes `coordinator`'s state as the snapshot, made under `graph`.
    static func write(_ coordinator: Coordinator, to store: StateStore, under graph: SavedGraph) throws(StartupError) {
        do {
            try store.writeSnapshot(
                revision: coordinator.revision, nextId: coordinator.state.nextIdNumber,
                document: coordinator.encodedSnapshot(), graph: graph)
        } catch {
            throw StartupError("cannot write the restored state to \(store.path): \(error.message)")
        }
    }

    /// Reads `navigator`'s state back from its store as last committed, under the graph it serves
    /// (after a failed commit); writes nothing.
    func rereadState(of navigator: ServedNavigator) throws(StartupError) -> Coordinator {
        let source = GraphSource(
            graph: navigator.coordinator.graph, routeFile: navigator.routeFile, bytes: navigator.routeFileBytes,
            saved: navigator.savedGraph)
        return try Self.restore(
            Self.load(navigator.store), from: navigator.store, source: source, label: navigator.logPrefix, logger: logger,
            compact: false
        ).coordinator
    }
}
