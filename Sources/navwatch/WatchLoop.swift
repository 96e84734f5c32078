#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// The single-threaded follow loop: one connection, `nextEvent` waits, signal handlers wake it.
///
/// | event | what it does |
/// | --- | --- |
/// | start | subscribe, then GetRoutes + GetState, show it with cause `state` |
/// | StackChanged, revision = last + 1 | show it |
/// | StackChanged, revision ≤ last | ignore (already shown) |
/// | StackChanged, revision > last + 1 | missed a signal: GetState, show that |
/// | StackChanged, cause `start`/`restore` | navd (re)started: new baseline, show it |
/// | a state shown whose top screen differs (terminal view) | GetEvents for the top screen + GetFlows |
/// | FlowFinished | hand it to the renderer (`--json` prints it, the terminal view notes it) |
/// | a key bound to an event (terminal view) | Send(top id, event, {}, 0), the answer noted |
/// | NameOwnerChanged, owner gone | `navdGone` (once) |
/// | NameOwnerChanged, new owner | wait up to 500 ms for its start-up signal, else GetState |
/// | InterfacesRemoved for the followed app (`--app`) | `navdGone` (once) |
/// | InterfacesAdded for the followed app | wait up to 500 ms for its start-up signal, else GetState |
/// | a state shown after `navdGone`, following an app | `appBack` first |
/// | a call answers an error (UnknownObject: the app is not there) | `navdGone` (once) |
/// | SIGINT/SIGTERM | finish, exit 0 |
final class WatchLoop {
    let client: NavigatorClient
    let renderer: Renderer
    let readsKeyboard: Bool

    private var lastRevision: UInt64?
    /// The id of the screen on top as last shown.
    private var topID: String?
    /// The id of the screen whose events the renderer offers.
    private var eventsTopID: String?
    private var isGone = false
    private var resyncDeadline: Int64?
    /// The error of the last resync that failed, nil after one that succeeded.
    private(set) var lastError: NavigatorError?

    init(client: NavigatorClient, renderer: Renderer, readsKeyboard: Bool) {
        self.client = client
        self.renderer = renderer
        self.readsKeyboard = readsKeyboard
    }

    /// Shows the current state; returns false when navd is not there (it was shown as gone).
    @discardableResult
    func resync(cause: String = "state") -> Bool {
        do {
            try refreshGraph()
            let state = try client.state()
            try show(StateChange(cause: cause, state: state))
            lastError = nil
            return true
        } catch {
            lastError = error
            markGone()
            return false
        }
    }

    /// Runs until SIGINT/SIGTERM, `q`, or the bus going away (then returns 3).
    func run() -> Int32 {
        while !stopRequested.load(ordering: .relaxed) {
            let wait: Int32
            if let resyncDeadline {
                wait = Int32(clamping: max(0, resyncDeadline - now()))
            } else {
                wait = readsKeyboard ? 100 : 60_000
            }
            let event = client.nextEvent(timeoutMilliseconds: wait)
            handle(event)
            if case .busDisconnected = event {
                markGone()
                renderer.finish()
                printError("navwatch: the bus \(client.busDescription) went away")
                return ExitStatus.unreachable
            }
            if let deadline = resyncDeadline, now() >= deadline {
                resyncDeadline = nil
                resync()
            }
            if resizeRequested.exchange(false, ordering: .relaxed) {
                renderer.resized()
            }
            if readsKeyboard, readKeys() { break }
        }
        renderer.finish()
        return ExitStatus.success
    }

    func handle(_ event: NavigatorEvent) {
        switch event {
        case .stackChanged(let change):
            if change.cause == "start" || change.cause == "restore" || lastRevision == nil || isGone {
                resyncDeadline = nil
                if isGone || lastRevision == nil { try? refreshGraph() }
                try? show(change)
            } else if let last = lastRevision, change.revision <= last {
                return
            } else if let last = lastRevision, change.revision == last + 1 {
                try? show(change)
            } else {
                do {
                    let state = try client.state()
                    try show(StateChange(cause: state.revision == change.revision ? change.cause : "state", state: state))
                } catch {
                    markGone()
                }
            }
        case .flowFinished(let finished):
            renderer.flowFinished(finished)
        case .navdVanished:
            markGone()
        case .navdAppeared:
            resyncDeadline = now() + 500
        case .appChanged(.removed(let name)) where name == client.app:
            resyncDeadline = nil
            markGone()
        case .appChanged(.added(let name)) where name == client.app:
            resyncDeadline = now() + 500
        case .appChanged:
            break
        case .woken, .timedOut, .busDisconnected:
            break
        }
    }

    /// Hands the renderer the route graph and tab names, when it draws them.
    private func refreshGraph() throws(NavigatorError) {
        guard renderer.wantsGraph else { return }
        renderer.useGraph(routes: try client.routes(), tabs: try client.properties().tabs)
    }

    private func show(_ change: StateChange) throws(NavigatorError) {
        let tree = renderer.wantsTree ? try client.tree() : nil
        lastRevision = change.revision
        if isGone, client.app != nil { renderer.appBack() }
        isGone = false
        topID = change.state.top?.id
        refreshEvents()
        renderer.show(change, tree: tree)
    }

    /// Fetches the top screen's events and the flows when the top screen is not the one they were fetched for,
    /// before the state is shown, so that one drawing holds the state with its keys.
    /// A failure (the top moved again: StaleSource; a navd without these methods) offers no keys until a
    /// later change fetches them.
    private func refreshEvents() {
        guard renderer.wantsEvents, let topID, topID != eventsTopID else { return }
        guard let events = try? client.events(source: topID) else {
            renderer.useEvents([], flows: [])
            return
        }
        eventsTopID = topID
        renderer.useEvents(events, flows: (try? client.flows()) ?? [])
    }

    /// Sends `event` from the screen on top as last shown, without a revision check; the view knows no destination.
    private func send(_ event: String) {
        guard let topID else { return }
        do {
            renderer.sent(event, .success(try client.send(event, source: topID)))
        } catch {
            renderer.sent(event, .failure(error))
        }
    }

    private func markGone() {
        guard !isGone else { return }
        isGone = true
        eventsTopID = nil
        renderer.navdGone()
    }

    /// Reads the bytes waiting on standard input; true when one asks to quit.
    private func readKeys() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 0) > 0 {
            var byte: UInt8 = 0
            guard read(0, &byte, 1) == 1 else { return false }
            switch renderer.key(byte) {
            case .quit: return true
            case .send(let event): send(event)
            case .nothing: break
            }
        }
        return false
    }

    private func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
