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
                try Self.makeDirectory(appDirectory)
                do {
                    store = try StateStore(directory: appDirectory, durability: options.durability, exclusive: true)
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

    /// `Reload()` on `navigator`'s object: on the default object every route file, on an app's
    /// object that app's file. Answers the navigator's revision after it; a refused file is
    /// `InvalidRouteFile`, a state that could not be made durable `StorageFailed`.
    func reload(from navigator: ServedNavigator) throws(DBusError) -> [DBusValue] {
        let outcome = navigator === main ? reloadEverything() : reloadApp(navigator)
        connection.flush()
        if !outcome.storageFailures.isEmpty {
            throw NavigatorErrorName.storageFailed.error(
                "could not make the repaired state durable, so those navigators keep their old graph and state: "
                    + outcome.storageFailures.joined(separator: "; "))
        }
        if !outcome.refused.isEmpty {
            let count = outcome.refused.count
            throw NavigatorErrorName.invalidRouteFile.error(
                "refused \(count) route file\(count == 1 ? "" : "s") (an app keeps the graph it had, a new one stays out; fix the file and call Reload again):\n"
                    + outcome.refused.joined(separator: "\n"))
        }
        return [.uint64(navigator.coordinator.revision)]
    }

    /// SIGHUP: reloads every route file and logs the outcome.
    func reloadOnSignal() {
        logger.notice("reloading every route file (SIGHUP)")
        let outcome = reloadEverything()
        connection.flush()
        for refused in outcome.refused { logger.error("refused route file: \(refused)") }
        for failure in outcome.storageFailures { logger.error("reload not made durable: \(failure)") }
    }

    /// Reloads the default navigator's route file and every app's; apps come and go with their files.
    func reloadEverything() -> ReloadOutcome {
        var outcome = ReloadOutcome()
        if let locate = options.routeFile {
            let file = locate()
            if let file {
                let bytes = Self.readFile(file)
                if !isUnchanged(file, bytes: bytes, for: main) {
                    switch loadGraph(file, bytes: bytes) {
                    case .failure(let error): outcome.refused.append(error.description)
                    case .success(let (graph, bytes)): apply(graph, bytes: bytes, file: file, to: main, &outcome)
                    }
                }
            } else {
                apply(withOverrides(RouteGraph.demo), bytes: nil, file: nil, to: main, &outcome)
            }
        }
        let files = appFiles()
        for (name, navigator) in apps.sorted(by: { $0.key < $1.key }) where files[name] == nil {
            removeApp(navigator)
        }
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            let bytes = Self.readFile(file)
            if let navigator = apps[name], isUnchanged(file, bytes: bytes, for: navigator) { continue }
            switch loadGraph(file, bytes: bytes) {
            case .failure(let error):
                outcome.refused.append(error.description)
            case .success(let (graph, bytes)):
                if let navigator = apps[name] {
                    apply(graph, bytes: bytes, file: file, to: navigator, &outcome)
                } else if let navigator = addApp(name, file: file, graph: graph, bytes: bytes) {
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

    /// Reloads one app's route file; a file that is gone is refused and the app stays.
    func reloadApp(_ navigator: ServedNavigator) -> ReloadOutcome {
        var outcome = ReloadOutcome()
        guard let file = navigator.routeFile else { return outcome }
        let bytes = Self.readFile(file)
        if isUnchanged(file, bytes: bytes, for: navigator) { return outcome }
        switch loadGraph(file, bytes: bytes) {
        case .failure(let error): outcome.refused.append(error.description)
        case .success(let (graph, bytes)): apply(graph, bytes: bytes, file: file, to: navigator, &outcome)
        }
        return outcome
    }

    /// Replaces `navigator`'s graph and repairs its state to fit, as one `reconcile` revision when
    /// anything changed; the repaired state is made durable (a snapshot, so that the journal after
    /// it replays against the new graph) before anything is announced. An unchanged file changes
    /// nothing.
    func apply(_ graph: RouteGraph, bytes: [UInt8]?, file: String?, to navigator: ServedNavigator, _ outcome: inout ReloadOutcome) {
        if let bytes, bytes == navigator.routeFileBytes, file == navigator.routeFile { return }
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
                try store.writeSnapshot(revision: after.revision, document: after.state.encodedSnapshot())
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
        loadGraph(file, bytes: Self.readFile(file))
    }

    /// The graph in `file`, whose `bytes` were just read (nil: unreadable), with the command
    /// line's limits over it, and those bytes.
    func loadGraph(_ file: String, bytes: [UInt8]?) -> Result<(RouteGraph, [UInt8]?), RouteFileError> {
        do throws(RouteFileError) {
            let graph: RouteGraph
            if let bytes {
                graph = try RouteGraph.load(yaml: String(decoding: bytes, as: UTF8.self), file: file)
            } else {
                // Unreadable: the loader says why, in its own words.
                graph = try RouteGraph.load(path: file)
            }
            return .success((withOverrides(graph), bytes))
        } catch {
            return .failure(error)
        }
    }

    /// `graph` with the command line's limits over its own.
    func withOverrides(_ graph: RouteGraph) -> RouteGraph {
        var graph = graph
        for (key, value) in options.limitOverrides { graph.limits[key] = value }
        return graph
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
