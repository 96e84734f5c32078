import DBus
import Foundation
import NavigatorProtocol
import Navigation
import RouteFiles

/// Apps (one navigator per route file in the apps folder) and reloading route files.
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

    // MARK: Start-up

    /// Serves every app of the apps folder whose route file loads and whose state can be read;
    /// the others are logged (with file and line) and kept out.
    func loadApps() {
        for (name, file) in appFiles().sorted(by: { $0.key < $1.key }) {
            switch loadGraph(file) {
            case .failure(let error):
                logger.error("app '\(name)' is kept out: its route file does not load: \(error)")
            case .success(let (graph, bytes)):
                _ = addApp(name, file: file, graph: graph, bytes: bytes)
            }
        }
    }

    /// The apps folder's route files by app name. A `.yaml` file whose name is not a valid app
    /// name is logged and ignored; other files are ignored.
    func appFiles() -> [String: String] {
        guard let directory = options.appsDirectory else { return [:] }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var files: [String: String] = [:]
        for entry in entries where entry.hasSuffix(".yaml") {
            let name = String(entry.dropLast(".yaml".count))
            if let problem = Navigator.appNameProblem(name) {
                logger.warning("ignoring \(directory)/\(entry): \(problem) (an app's route file is NAME.yaml, NAME 1-64 characters from A-Z, a-z, 0-9 and _)")
                continue
            }
            files[name] = directory + "/" + entry
        }
        return files
    }

    /// Opens the app's store, restores its state and exports its object; nil (logged) when its
    /// state cannot be read.
    func addApp(_ name: String, file: String, graph: RouteGraph, bytes: [UInt8]?) -> ServedNavigator? {
        guard let path = Navigator.appPath(name) else { return nil }
        var store: StateStore?
        do throws(StartupError) {
            if let directory = options.stateDirectory {
                let appDirectory = directory + "/apps/" + name
                try Self.makeDirectory(appDirectory, logger: logger)
                do {
                    store = try StateStore(directory: appDirectory, durability: options.durability, exclusive: true)
                    for notice in store?.notices ?? [] { logger.notice("app '\(name)': \(notice)") }
                } catch {
                    throw StartupError(error.message)
                }
            }
            var coordinator = Coordinator(graph: graph)
            let restored = try Self.restore(into: &coordinator, from: store, graph: graph, logger: logger)
            let navigator = ServedNavigator(
                app: name, path: path, routeFile: file, routeFileBytes: bytes, coordinator: coordinator, store: store,
                restored: restored)
            apps[name] = navigator
            export(navigator)
            logger.info("serving app '\(name)' from \(file) at revision \(coordinator.revision)")
            return navigator
        } catch {
            store?.close()
            logger.error("app '\(name)' is kept out: \(error.message)")
            return nil
        }
    }

    /// Takes an app off the bus: its last snapshot is written, its store closed (the state stays
    /// on disk), `InterfacesRemoved` is sent.
    func removeApp(_ navigator: ServedNavigator) {
        guard let name = navigator.app else { return }
        close(navigator)
        server.unexport(navigator.path)
        navigators[navigator.path.rawValue] = nil
        apps[name] = nil
        do {
            send([.marshalled(try server.marshalledInterfacesRemoved(navigator.path, interfaces: [Navigator.interfaceName]))])
        } catch {
            logger.error("could not build InterfacesRemoved: \(error.message)")
        }
        logger.notice("app '\(name)' is gone: its route file was removed (its state stays on disk for when the file comes back)")
    }

    // MARK: Reload

    /// `Reload()` on `navigator`'s object, done at once on the loop's thread (the dispatch table's
    /// handler; the loop itself runs `Reload` calls through `requestReload`, which parses off it).
    func reload(from navigator: ServedNavigator) throws(DBusError) -> [DBusValue] {
        let job = plannedReload(of: navigator === main ? nil : navigator, answering: [], fromSignal: false)
        job.parse()
        let outcome = finish(job)
        connection.flush()
        if let error = outcome.error { throw error }
        return [.uint64(navigator.coordinator.revision)]
    }

    /// Starts a reload of every route file (`target` nil) or of one app's, answering `call` (if any)
    /// when it is done; while another reload is under way it waits its turn.
    func requestReload(of target: ServedNavigator?, answering call: Message?, fromSignal: Bool = false) {
        queuedReloads.append((target, call, fromSignal))
        startQueuedReloads()
    }

    /// Starts the queued reloads in order until one has to wait for its parsing thread.
    func startQueuedReloads() {
        while reloadInFlight == nil, !queuedReloads.isEmpty {
            let (target, call, fromSignal) = queuedReloads.removeFirst()
            if let target, navigators[target.path.rawValue] !== target {
                // The app went while this call waited: answer as for any unknown app.
                if let call, let reply = unknownAppReply(call) { send(reply) }
                continue
            }
            let job = plannedReload(of: target, answering: call.map { [$0] } ?? [], fromSignal: fromSignal)
            // Files that changed are parsed on a thread of their own, so that calls to every navigator
            // go on meanwhile; the loop applies the result when the thread wakes it.
            let waker = connection.waker
            if job.hasWork, DetachedThread.start(named: "navd-reload", { job.parse(); waker.wake() }) {
                reloadInFlight = job
            } else {
                job.parse()
                finishAndAnswer(job)
            }
        }
    }

    /// Applies the reload under way once its files are parsed; then starts the next one.
    func finishParsedReload() {
        guard let job = reloadInFlight, job.isParsed else { return }
        reloadInFlight = nil
        finishAndAnswer(job)
        startQueuedReloads()
    }

    /// Waits for the reload under way (and the queued ones), at shutdown.
    func finishReloadsBeforeStopping() {
        while reloadInFlight != nil || !queuedReloads.isEmpty {
            if let job = reloadInFlight, !job.isParsed {
                usleep(1_000)
                continue
            }
            finishParsedReload()
            startQueuedReloads()
        }
    }

    /// What to read again: the files whose bytes differ from those their graph came from, new app
    /// files, and (reloading everything) the apps whose files are gone.
    func plannedReload(of target: ServedNavigator?, answering calls: [Message], fromSignal: Bool) -> ReloadJob {
        var items: [ReloadJob.Item] = []
        var removed: [String] = []
        if let target {
            if let file = target.routeFile {
                let bytes = Self.readFile(file)
                if !isUnchanged(file, bytes: bytes, for: target) { items.append(.init(app: target.app, file: file, bytes: bytes)) }
            }
        } else {
            if let locate = options.routeFile {
                let file = locate()
                let bytes = file.flatMap(Self.readFile)
                if file == nil || !isUnchanged(file!, bytes: bytes, for: main) {
                    items.append(.init(app: nil, file: file, bytes: bytes))
                }
            }
            let files = appFiles()
            removed = apps.keys.filter { files[$0] == nil }.sorted()
            for (name, file) in files.sorted(by: { $0.key < $1.key }) {
                let bytes = Self.readFile(file)
                if let navigator = apps[name], isUnchanged(file, bytes: bytes, for: navigator) { continue }
                items.append(.init(app: name, file: file, bytes: bytes))
            }
        }
        return ReloadJob(
            target: target, everything: target == nil, items: items, removedApps: removed, calls: calls,
            fromSignal: fromSignal, limitOverrides: options.limitOverrides)
    }

    /// Applies a parsed reload and answers its calls: each with its navigator's revision after it,
    /// or the reload's error.
    func finishAndAnswer(_ job: ReloadJob) {
        let outcome = finish(job)
        for call in job.calls where !call.noReplyExpected {
            if let error = outcome.error {
                send(call.makeError(error))
            } else if let navigator = navigators[call.path ?? ""] {
                do {
                    send(try call.makeReply([.uint64(navigator.coordinator.revision)]))
                } catch {
                    send(call.makeError(error))
                }
            } else if let reply = unknownAppReply(call) {
                send(reply)
            }
        }
        if job.fromSignal {
            for refused in outcome.refused { logger.error("refused route file: \(refused)") }
            for failure in outcome.storageFailures { logger.error("reload not made durable: \(failure)") }
        }
        connection.flush()
    }

    /// Applies a parsed reload on the loop's thread: apps whose files are gone leave, graphs that
    /// loaded replace the old ones (new apps appear), files that did not load are refused.
    func finish(_ job: ReloadJob) -> ReloadOutcome {
        // Calls held for the group commit go first: the repair is written as a snapshot, which must
        // not cover changes that are not in the journal yet.
        if !pending.isEmpty { commitPending() }
        var outcome = ReloadOutcome()
        for name in job.removedApps {
            if let navigator = apps[name] { removeApp(navigator) }
        }
        for (item, result) in zip(job.items, job.results) {
            switch result {
            case .failure(let error):
                outcome.refused.append(error.description)
            case .success(let graph):
                guard let name = item.app else {
                    apply(graph, bytes: item.bytes, file: item.file, to: main, &outcome)
                    continue
                }
                if let navigator = apps[name] {
                    if job.everything || navigator === job.target {
                        apply(graph, bytes: item.bytes, file: item.file, to: navigator, &outcome)
                    }
                } else if job.everything, let file = item.file,
                          let navigator = addApp(name, file: file, graph: graph, bytes: item.bytes) {
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

    /// SIGHUP: reloads every route file (off the loop's thread), logging what was refused.
    func reloadOnSignal() {
        logger.notice("reloading every route file (SIGHUP)")
        requestReload(of: nil, answering: nil, fromSignal: true)
    }

    /// Replaces `navigator`'s graph and repairs its state to fit, as one `reconcile` revision when
    /// anything changed; the repaired state is made durable (a snapshot, so that the journal after
    /// it replays against the new graph) before anything is announced. An unchanged file changes
    /// nothing (a file whose bytes did not change is not even parsed: see `plannedReload`).
    func apply(_ graph: RouteGraph, bytes: [UInt8]?, file: String?, to navigator: ServedNavigator, _ outcome: inout ReloadOutcome) {
        let before = navigator.coordinator
        if graph == before.graph {
            navigator.routeFile = file
            navigator.routeFileBytes = bytes
            return
        }
        var after = before
        let reconciliation = after.reload(graph, at: Self.now())
        if let store = navigator.store, reconciliation.change != nil || store.journalLength > 0 {
            do {
                try store.writeSnapshot(
                    revision: after.revision, nextId: after.state.nextIdNumber, document: after.state.encodedSnapshot(), graph: nil)
            } catch {
                outcome.storageFailures.append("\(navigator.label): \(error.message)")
                return
            }
        }
        navigator.coordinator = after
        navigator.routeFile = file
        navigator.routeFileBytes = bytes
        for warning in reconciliation.warnings { logger.warning("\(navigator.logPrefix)\(warning)") }
        logger.notice("\(navigator.logPrefix)route file \(file ?? "<demo>") reloaded\(reconciliation.change.map { "; the tree was repaired as revision \($0.revision)" } ?? "")")
        navigator.pendingProperties.formUnion(reconciliation.changedProperties.map(NavigatorProperty.init))
        announce(reconciliation.change, from: navigator)
    }

    /// Whether `file` holds the very bytes `navigator`'s graph was loaded from: `apply` would
    /// change nothing, so the file is not parsed again (parsing a large file is most of a reload).
    func isUnchanged(_ file: String, bytes: [UInt8]?, for navigator: ServedNavigator) -> Bool {
        guard let bytes else { return false }
        return file == navigator.routeFile && bytes == navigator.routeFileBytes
    }

    /// The graph in `file` with the command line's limits over it, and the file's bytes.
    func loadGraph(_ file: String) -> Result<(RouteGraph, [UInt8]?), RouteFileError> {
        let bytes = Self.readFile(file)
        return ReloadJob.graph(file: file, bytes: bytes, limitOverrides: options.limitOverrides).map { ($0, bytes) }
    }

    /// A file's bytes, nil when it cannot be read.
    static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    // MARK: Unknown apps

    /// `UnknownObject` naming the apps there are, for a call to an app path that is not served.
    func unknownAppReply(_ message: Message) -> Message? {
        guard let path = message.path, path.hasPrefix(Navigator.appsPath.rawValue + "/"), navigators[path] == nil,
              !message.noReplyExpected
        else { return nil }
        let names = apps.keys.sorted()
        let folder = options.appsDirectory.map { " (route files NAME.yaml in \($0))" } ?? ""
        let list = names.isEmpty
            ? "navd serves no apps\(folder)"
            : "the apps are \(names.joined(separator: ", "))\(folder)"
        return message.makeError(DBusError(
            name: DBusErrorName.unknownObject, message: "No app at '\(path)': \(list)"))
    }
}
