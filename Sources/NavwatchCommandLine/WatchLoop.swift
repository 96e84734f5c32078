#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// The single-threaded follow loop: one connection, `nextEvent` waits, signal handlers wake it. A `Follower`
/// follows navd by `FollowRules` (the table of what each signal means, written once in NavdClient); the loop
/// carries out the rules' actions and adds what only a view with a terminal and keys does.
///
/// | the rules' action, or an event | what it does |
/// | --- | --- |
/// | `newBaseline` | GetRoutes and the `Tabs` property, when the renderer draws titles, colours and tabs |
/// | `back` | the renderer's back marker (`--json`: `{"event":"back","app":NAME}`) |
/// | `show` | GetTree with `--tree`, then the renderer shows it; GetTree failing counts as a failed read (`gone`) |
/// | a state shown whose top screen differs (terminal view) | GetEvents for the top screen + GetFlows, before it is drawn |
/// | `gone` | the renderer's gone marker |
/// | `flowFinished` | hand it to the renderer (`--json` prints it, the terminal view notes it) |
/// | a key bound to an event (terminal view) | Send(top id, event, {}, 0), the answer noted |
/// | the bus goes away | the gone marker (the rules' `navdVanished`), exit 3 |
/// | SIGINT/SIGTERM | finish, exit 0 |
final class WatchLoop {
    /// How long a wait for events lasts with no key to read and no wait of the rules in force.
    static let idleMilliseconds: Int32 = 60_000
    /// How often the terminal view looks for key presses.
    static let keyPollMilliseconds: Int32 = 100

    let follower: Follower
    let renderer: Renderer
    let readsKeyboard: Bool

    /// The id of the screen on top as last shown.
    private var topID: String?
    /// The id of the screen whose events the renderer offers.
    private var eventsTopID: String?

    var client: NavigatorClient { follower.client }
    /// The error of the last state read that failed, nil after one that succeeded.
    var lastError: NavigatorError? { follower.lastReadError }
    /// The error of the last state that could not be shown (GetTree failed after GetState), nil once one was.
    private(set) var showError: NavigatorError?

    init(client: NavigatorClient, renderer: Renderer, readsKeyboard: Bool) {
        self.follower = Follower(client: client)
        self.renderer = renderer
        self.readsKeyboard = readsKeyboard
    }

    /// Shows the current state; returns false when navd is not there (it was shown as gone).
    @discardableResult
    func start() -> Bool {
        follower.start(perform)
    }

    /// Runs until SIGINT/SIGTERM, `q`, or the bus going away (then returns 3).
    func run() -> Int32 {
        while !stopRequested.load(ordering: .relaxed) {
            let idle = readsKeyboard ? Self.keyPollMilliseconds : Self.idleMilliseconds
            if case .busDisconnected = follower.next(idleMilliseconds: idle, perform) {
                follower.handle(.navdVanished, perform)
                renderer.finish()
                printError("navwatch: the bus \(client.busDescription) went away")
                return ExitStatus.unreachable
            }
            if resizeRequested.exchange(false, ordering: .relaxed) {
                renderer.resized()
            }
            if readsKeyboard, readKeys() { break }
        }
        renderer.finish()
        return ExitStatus.success
    }

    /// Carries out one of the rules' actions.
    private func perform(_ action: FollowRules.Action) {
        switch action {
        case .newBaseline:
            try? refreshGraph()
        case .back:
            renderer.appBack()
        case .show(let change):
            do {
                try show(change)
                showError = nil
            } catch {
                // navd answered GetState but not GetTree (it went in between): as a failed read, the gone marker.
                showError = error
                follower.handle(.readFailed, perform)
            }
        case .gone:
            if case .remote(let name, let message)? = lastError, name == "org.freedesktop.DBus.Error.AccessDenied" {
                printError("navwatch: \(message) [\(name)]")
            }
            eventsTopID = nil
            renderer.navdGone()
        case .flowFinished(let finished):
            renderer.flowFinished(finished)
        case .fetchState, .wait:
            break  // the follower's own
        }
    }

    /// Hands the renderer the route graph and tab names, when it draws them.
    private func refreshGraph() throws(NavigatorError) {
        guard renderer.wantsGraph else { return }
        renderer.useGraph(routes: try client.send(.getRoutes), tabs: try client.send(.properties).tabs)
    }

    private func show(_ change: StateChange) throws(NavigatorError) {
        let tree = renderer.wantsTree ? try client.send(.getTree) : nil
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
        guard let events = try? client.send(.getEvents(source: topID)) else {
            renderer.useEvents([], flows: [])
            return
        }
        eventsTopID = topID
        renderer.useEvents(events, flows: (try? client.send(.getFlows)) ?? [])
    }

    /// Sends `event` from the screen on top as last shown, without a revision check; the view knows no destination.
    private func send(_ event: String) {
        guard let topID else { return }
        do {
            renderer.sent(event, .success(try client.send(.send(event, source: topID))))
        } catch {
            renderer.sent(event, .failure(error))
        }
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
}
