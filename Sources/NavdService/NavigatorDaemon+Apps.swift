import DBus
import NavigatorProtocol
import Navigation
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// Apps: one navigator per route file in the apps folder, loaded at start and added or removed
/// by a reload.
extension NavigatorDaemon {
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
        var files: [String: String] = [:]
        for entry in folderEntries(directory) where entry.hasSuffix(".yaml") {
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
    func addApp(_ name: String, file: String, graph: RouteGraph, bytes: [UInt8]) -> ServedNavigator? {
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
            let source = GraphSource(graph: graph, routeFile: file, bytes: bytes, overrides: options.limitOverrides)
            let restored = try Self.restore(
                try Self.load(store), from: store, source: source, label: "app '\(name)': ", logger: logger)
            releaseFreedMemory()
            let navigator = ServedNavigator(
                app: name, path: path, source: source, coordinator: restored.coordinator, store: store,
                restored: restored.restored)
            loadGraphs(of: navigator)
            apps[name] = navigator
            export(navigator)
            logger.info("serving app '\(name)' from \(file) at revision \(restored.coordinator.revision)")
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

    /// The graph in `file` with the command line's limits over it, and the file's bytes.
    func loadGraph(_ file: String) -> Result<(graph: RouteGraph, bytes: [UInt8]), RouteFileError> {
        RouteFileLoading.load(file, limitOverrides: options.limitOverrides)
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
