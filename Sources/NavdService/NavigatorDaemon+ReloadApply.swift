import DBus
import NavigatorProtocol
import Navigation
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// Reloading route files, the work: which files to read again, and applying what they parsed to
/// (repairing the state of) each navigator, apps coming and going.
extension NavigatorDaemon {
    /// What a reload refused or could not keep: each refused file as `FILE:LINE: KEY: PROBLEM`,
    /// and each navigator whose repaired state could not be made durable.
    struct ReloadOutcome {
        var refused: [String] = []
        var storageFailures: [String] = []

        /// The answer to a `Reload` call when something went wrong: `StorageFailed` first, then
        /// `InvalidRouteFile` naming every refused file, one a line.
        var error: DBusError? {
            if !storageFailures.isEmpty {
                return NavigatorErrorName.storageFailed.error(
                    "could not make the repaired state durable, so those navigators keep their old graph and state: "
                        + storageFailures.joined(separator: "; "))
            }
            if !refused.isEmpty {
                let count = refused.count
                return NavigatorErrorName.invalidRouteFile.error(
                    "refused \(count) route file\(count == 1 ? "" : "s") (an app keeps the graph it had, a new one stays out; fix the file and call Reload again):\n"
                        + refused.joined(separator: "\n"))
            }
            return nil
        }
    }

    /// What to read again: the files whose bytes differ from those their graph came from, new app
    /// files, and (reloading everything) the apps whose files are gone.
    func plannedReload(of target: ServedNavigator?, answering calls: [Message], fromSignal: Bool) -> ReloadJob {
        var items: [ReloadJob.Item] = []
        var removed: [String] = []
        if let target {
            if let file = target.routeFile {
                let bytes = RouteFileLoading.read(file)
                if !isUnchanged(file, bytes: bytes, for: target) { items.append(item(target, file: file, bytes: bytes)) }
            }
        } else {
            if let locate = options.routeFile {
                // A default navigator loaded from a file keeps to it when nothing is found at
                // the usual place: "file is gone" is refused like an app's, never read as "serve
                // the demo graph" (which would repair the user's tree away).
                if let file = locate() ?? main.routeFile {
                    let bytes = RouteFileLoading.read(file)
                    if !isUnchanged(file, bytes: bytes, for: main) { items.append(item(main, file: file, bytes: bytes)) }
                } else {
                    items.append(item(main, file: nil, bytes: .success([])))
                }
            }
            let files = appFiles()
            removed = apps.keys.filter { files[$0] == nil }.sorted()
            for (name, file) in files.sorted(by: { $0.key < $1.key }) {
                let bytes = RouteFileLoading.read(file)
                if let navigator = apps[name], isUnchanged(file, bytes: bytes, for: navigator) { continue }
                items.append(apps[name].map { item($0, file: file, bytes: bytes) } ?? .init(app: name, file: file, bytes: bytes))
            }
        }
        return ReloadJob(
            target: target, everything: target == nil, items: items, removedApps: removed, calls: calls,
            fromSignal: fromSignal, limitOverrides: options.limitOverrides, beforeParsing: beforeParsingReload)
    }

    /// Applies a parsed reload on the loop's thread: apps whose files are gone leave, graphs that
    /// loaded replace the old ones (new apps appear), files that did not load are refused.
    func finish(_ job: ReloadJob) -> ReloadOutcome {
        // Calls held for the group commit go first: the repair is written as a snapshot, which must
        // not cover changes that are not in the journal yet.
        commitPending()
        var outcome = ReloadOutcome()
        for name in job.removedApps {
            if let navigator = apps[name] { removeApp(navigator) }
        }
        for (item, parsed) in zip(job.items, job.results) {
            switch parsed.graph {
            case .failure(let error):
                outcome.refused.append(error.description)
            case .success(let graph):
                let bytes = try? item.bytes.get()
                guard let name = item.app else {
                    apply(graph, bytes: bytes, file: item.file, to: main, asked: job.calls.first, same: same(parsed, item, main), &outcome)
                    continue
                }
                if let navigator = apps[name] {
                    if job.everything || navigator === job.target {
                        apply(graph, bytes: bytes, file: item.file, to: navigator, asked: job.calls.first, same: same(parsed, item, navigator), &outcome)
                    }
                } else if job.everything, let file = item.file, let bytes,
                          let navigator = addApp(name, file: file, graph: graph, bytes: bytes) {
                    do {
                        send([.marshalled(try server.marshalledInterfacesAdded(navigator.path))])
                    } catch {
                        logger.error("could not build InterfacesAdded: \(error.message)")
                    }
                    announceStart(navigator)
                }
            }
        }
        return outcome
    }

    /// A file of `navigator`'s to parse, with the graph it serves now to compare the new one with.
    private func item(_ navigator: ServedNavigator, file: String?, bytes: Result<[UInt8], RouteFileError>) -> ReloadJob.Item {
        ReloadJob.Item(
            app: navigator.app, file: file, bytes: bytes, inForce: navigator.coordinator.graph, navigator: ObjectIdentifier(navigator),
            epoch: navigator.graphEpoch)
    }

    /// Whether the parse found the graph equal to `navigator`'s: nil when `navigator` was not serving the graph it
    /// was compared with (another graph was put in force meanwhile), for `apply` to compare them itself.
    private func same(_ parsed: ReloadJob.Parsed, _ item: ReloadJob.Item, _ navigator: ServedNavigator) -> Bool? {
        item.inForce != nil && item.navigator == ObjectIdentifier(navigator) && item.epoch == navigator.graphEpoch ? parsed.sameAsInForce : nil
    }

    /// Replaces `navigator`'s graph and repairs its state to fit, as one `reconcile` revision when
    /// anything changed; the repaired state is made durable (a snapshot, so that the journal after
    /// it replays against the new graph) before anything is announced. An unchanged file changes
    /// nothing (a file whose bytes did not change is not even parsed: see `plannedReload`). `asked` is the
    /// `Reload` call that asked for it (nil for SIGHUP), recorded as the reconcile's caller.
    func apply(
        _ graph: RouteGraph, bytes: [UInt8]?, file: String?, to navigator: ServedNavigator, asked: Message?,
        same: Bool? = nil, _ outcome: inout ReloadOutcome
    ) {
        let before = navigator.coordinator
        let saved = RouteFileLoading.savedGraph(file: file, bytes: bytes, overrides: options.limitOverrides)
        if same ?? (graph == before.graph) {
            // The journal after the last snapshot replays as well under either record.
            navigator.routeFile = file
            navigator.routeFileBytes = bytes
            navigator.savedGraph = saved
            return
        }
        var after = before
        let reconciliation = after.reload(graph, at: Self.now())
        if let change = reconciliation.change {
            after.record(reloadRecord(asked: asked), forRevision: change.revision)
        }
        if let store = navigator.store {
            // Even when nothing had to be repaired: every journal row after this snapshot is made
            // under the new graph, so the snapshot must say so before any of them is written.
            do {
                try store.writeSnapshot(
                    revision: after.revision, nextId: after.state.nextIdNumber, document: after.encodedSnapshot(),
                    graph: saved)
            } catch {
                outcome.storageFailures.append("\(navigator.label): \(error.message)")
                return
            }
        }
        navigator.coordinator = after
        navigator.graphEpoch += 1
        navigator.routeFile = file
        navigator.routeFileBytes = bytes
        navigator.savedGraph = saved
        if after.state.graphGeneration != before.state.graphGeneration { rememberGraph(of: navigator) }
        for warning in reconciliation.warnings { logger.warning("\(navigator.logPrefix)\(warning)") }
        logger.notice("\(navigator.logPrefix)route file \(file ?? "<demo>") reloaded\(reconciliation.change.map { "; the tree was repaired as revision \($0.revision)" } ?? "")")
        var properties = PendingProperties()
        properties.insert(reconciliation.changedProperties)
        // `access:` is part of the graph, not of the state the reconciliation compares.
        if graph.access != before.graph.access { properties.insert(.access) }
        announce(reconciliation.change, properties: properties, from: navigator)
    }

    /// Whether `file` holds the very bytes `navigator`'s graph was loaded from: `apply` would
    /// change nothing, so the file is not parsed again (parsing a large file is most of a reload).
    func isUnchanged(_ file: String, bytes: Result<[UInt8], RouteFileError>, for navigator: ServedNavigator) -> Bool {
        guard case .success(let bytes) = bytes else { return false }
        guard file == navigator.routeFile, let known = navigator.routeFileBytes else { return false }
        return bytes.sameBytes(as: known)
    }
}

extension Array where Element == UInt8 {
    /// Whether both hold the same bytes, compared by `memcmp`: `==` on arrays compares one element at a time, which
    /// for a 1,000-route file was a tenth of navd's CPU while unchanged files were reloaded in a loop.
    func sameBytes(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
    }
}
