import DBus
import JSON
import Navigation
import NavigatorProtocol
import Recording

/// Export (docs/devtools.md, "Recordings"): the recording of the kept changes, made from what the model keeps
/// with each change and the graph of each generation they were answered under.
extension NavigatorDaemon {
    /// Export's answer: the recording from `from_revision`, redacted when asked.
    func export(_ call: ExportArguments, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let from = call.fromRevision
        let redact = call.redact
        let stretch: ExportedStretch
        do {
            stretch = try nav.coordinator.exportedStretch(from: from) { nav.graphTexts[$0] != nil }
        } catch {
            throw DBusError(error)
        }
        var previous = stretch.startGraph
        var changes: [RecordingChange] = []
        changes.reserveCapacity(stretch.changes.count)
        for exported in stretch.changes {
            let record = exported.info.record
            let method = record?.method ?? ""
            var json: JSONValue?
            if !method.isEmpty {
                let values = RecordedArguments.decode(record?.arguments ?? []) ?? []
                do {
                    json = try RecordedCall.json(method: method, arguments: values)
                } catch {
                    throw .failed("revision \(exported.info.entry.revision): its recorded arguments cannot be exported (\(error))")
                }
            }
            let caller = record.flatMap(RecordingCaller.init)
            changes.append(RecordingChange(
                revision: exported.info.entry.revision, cause: exported.info.entry.cause, time: exported.info.entry.time,
                method: method, arguments: json, caller: caller, tab: exported.info.tab ?? "", path: exported.path,
                nextId: exported.nextId, routes: exported.graph == previous ? nil : Self.routes(nav.graphTexts[exported.graph]!)))
            previous = exported.graph
        }
        var start = stretch.start
        if redact { start = start.redactingParams() }
        var recording = Recording(
            navd: Navigator.version, app: nav.app ?? "", routes: Self.routes(nav.graphTexts[stretch.startGraph]!),
            start: RecordingStart(start), changes: changes)
        if redact { recording = recording.redacted(openTarget: { nav.coordinator.graph.redactedTarget($0) }) }
        return .reply([.string(recording.encoded())])
    }

    /// A saved graph as a recording names it.
    static func routes(_ saved: SavedGraph) -> RecordingRoutes {
        saved.origin == SavedGraph.demoOrigin ? .demo : .file(path: saved.origin, text: String(decoding: saved.source, as: UTF8.self))
    }

    /// Reads the graphs `nav`'s store keeps for Export, then keeps the current one (at start).
    func loadGraphs(of nav: ServedNavigator) {
        do {
            nav.graphTexts = try nav.store?.graphTexts() ?? [:]
        } catch {
            logger.warning("\(nav.logPrefix)\(error.message); Export will leave out the changes made under earlier route graphs")
        }
        rememberGraph(of: nav)
    }

    /// Keeps `nav`'s current graph generation's graph, in memory and in its store, and forgets the graphs no
    /// kept change refers to any more. A store that cannot write it leaves Export without that graph (logged):
    /// the changes made under it are then not exported, nothing else is affected.
    func rememberGraph(of nav: ServedNavigator) {
        let generation = nav.coordinator.state.graphGeneration
        let oldest = nav.coordinator.oldestKeptGraphGeneration
        nav.graphTexts[generation] = nav.savedGraph
        for known in nav.graphTexts.keys where known < oldest { nav.graphTexts[known] = nil }
        do {
            try nav.store?.rememberGraph(nav.savedGraph, generation: generation, forgettingBelow: oldest)
        } catch {
            logger.warning("\(nav.logPrefix)\(error.message); Export will leave out the changes made under this route graph")
        }
    }
}
