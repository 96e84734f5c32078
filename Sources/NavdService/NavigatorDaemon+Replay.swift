import DBus
import NavigatorProtocol
import Navigation

// `navd --ephemeral --from-recording FILE` (docs/devtools.md, "Recordings"): the hooks that make a replaying
// navd's changes comparable with a recording's. The model is untouched: before the call that is to make
// the k-th recorded change, the revision and id counter move up to where that change started
// (`Coordinator.skipForward`), and the graph it was answered under is put in force.

extension NavigatorDaemon {
    /// The default navigator's state at start for a replay: the recording's start state under its graph,
    /// repaired to navd's own route file (`--routes`) when one replaces the recorded graphs.
    static func replayStart(_ plan: ReplayPlan, options: ServiceOptions) -> RestoredNavigator {
        let recorded = plan.startGraph
        var coordinator = Coordinator(graph: recorded.graph, restoring: plan.start)
        if let first = plan.steps.first { coordinator.setIdCounterForReplay(first.nextId) }
        guard plan.underRoutesFile else {
            let source = GraphSource(graph: recorded.graph, routeFile: recorded.file, bytes: recorded.bytes, overrides: [])
            return RestoredNavigator(coordinator: coordinator, source: source, restored: true)
        }
        if let change = coordinator.reload(options.graph, at: now()).change {
            coordinator.record(reconcileRecord(reason: "start"), forRevision: change.revision)
        }
        let source = GraphSource(
            graph: options.graph, routeFile: options.graphSource?.file, bytes: options.graphSource?.bytes,
            overrides: options.limitOverrides)
        return RestoredNavigator(coordinator: coordinator, source: source, restored: true)
    }

    /// Before a call that may change `navigator`: for a replay, the next recorded change's graph is put in
    /// force and the revision and id counter move to where it started.
    func prepareRecordedChange(on navigator: ServedNavigator) {
        guard let replay, navigator === main, let step = replay.step else { return }
        if !step.isReconcile, let graph = step.graph { putInForce(graph, asked: nil) }
        main.coordinator.skipForward(pastRevision: step.revision - 1, nextId: step.nextId)
    }

    /// After a call to `navigator` that made a change (not a no-op).
    func noteRecordedChange(on navigator: ServedNavigator) {
        guard let replay, navigator === main else { return }
        replay.advance()
    }

    /// A `Reload` call on the default object of a replaying navd, done at once: the next recorded change's
    /// graph (or navd's own route file, when it replaces them) is reloaded, and the call is answered with the
    /// revision after it. False when navd is not replaying (the call is then a reload as usual).
    func replayReload(_ message: Message, on target: ServedNavigator) -> Bool {
        guard let replay, target === main else { return false }
        prepareRecordedChange(on: main)
        let before = main.coordinator.revision
        if replay.plan.underRoutesFile {
            finishAndAnswer(jobAnsweredAtOnce(message))
        } else {
            if let graph = replay.step?.graph { putInForce(graph, asked: message) }
            if !message.noReplyExpected {
                do {
                    send(try message.makeReply([.uint64(main.coordinator.revision)]))
                } catch {
                    send(message.makeError(error))
                }
            }
        }
        if main.coordinator.revision != before { replay.advance() }
        return true
    }

    /// A reload of every route file answering `message`, parsed on the loop's thread.
    private func jobAnsweredAtOnce(_ message: Message) -> ReloadJob {
        let job = plannedReload(of: nil, answering: [message], fromSignal: false)
        job.parse()
        return job
    }

    /// Makes `graph` the default navigator's, repairing its state to fit as a reload does.
    private func putInForce(_ graph: ReplayPlan.Graph, asked: Message?) {
        var outcome = ReloadOutcome()
        apply(graph.graph, bytes: graph.bytes, file: graph.file, to: main, asked: asked, &outcome)
    }
}
