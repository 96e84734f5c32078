#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// `navwatch --inspect`: a terminal timeline over the kept revisions (docs/devtools.md). One connection, one
/// thread; the same `Follower` as `WatchLoop` tells it when navd's state changes, and this table says what each
/// event does:
///
/// | event | what it does |
/// | --- | --- |
/// | a state shown (start, StackChanged, navd back) | GetChanges: the kept revisions anew, with their callers; the view follows the newest if it showed it, else stays (the header counts the newer ones); GetTreeAt of the revision shown when not read before |
/// | `newBaseline` | forget the trees read (a navd that came back may number its revisions anew) |
/// | `gone` | forget the timeline; the gone marker |
/// | ← / → | the revision before / after the one shown (stopping at the ends); GetTreeAt when not read before |
/// | Enter | ask "revert to revision N?" |
/// | `y` while asked | Revert(N, expected: the current revision as last heard); the view goes to the revision it made (navd's current one for a no-op); a refusal (StaleRevision, …) is noted on the status line |
/// | any other key while asked | cancel, noted |
/// | `q` | finish, exit 0 |
/// | the bus goes away | the gone marker, exit 3 |
/// | SIGINT/SIGTERM | finish, exit 0 |
/// | SIGWINCH | redraw at the new size |
final class InspectLoop {
    /// How often the loop looks for key presses.
    static let keyPollMilliseconds: Int32 = 100
    /// The `GetChanges` limit asked for: every kept change.
    static let historyLimit = UInt32.max

    let follower: Follower
    let terminal = Terminal()
    private var view: InspectView
    private var keys = InspectKeyReader()
    /// The states read, by revision; kept revisions do not change while navd stays.
    private var states: [UInt64: StateAtRevision] = [:]

    var client: NavigatorClient { follower.client }

    init(client: NavigatorClient, color: Bool, unicode: Bool) {
        follower = Follower(client: client)
        view = InspectView(palette: Palette(enabled: color), unicode: unicode)
    }

    /// Enters the alternate screen and runs until `q`, SIGINT/SIGTERM (0) or the bus going away (3).
    func run() -> Int32 {
        terminal.enter()
        defer { terminal.leave() }
        follower.start(perform)
        draw()
        while !stopRequested.load(ordering: .relaxed) {
            if case .busDisconnected = follower.next(idleMilliseconds: Self.keyPollMilliseconds, perform) {
                follower.handle(.navdVanished, perform)
                terminal.leave()
                printError("navwatch: the bus \(client.busDescription) went away")
                return ExitStatus.unreachable
            }
            if resizeRequested.exchange(false, ordering: .relaxed) {
                writeOut("\u{1B}[2J")
                draw()
            }
            if readKeys() { break }
        }
        return ExitStatus.success
    }

    /// Carries out one of the follower's actions.
    private func perform(_ action: FollowRules.Action) {
        switch action {
        case .show(let change):
            view.isGone = false
            refresh(current: change.revision)
        case .newBaseline:
            states = [:]
        case .gone:
            view.timeline.reset()
            view.state = nil
            view.confirming = nil
            view.isGone = true
            states = [:]
        case .back, .flowFinished, .fetchState, .wait:
            break
        }
        draw()
    }

    /// Reads the kept revisions anew with `current` the newest, then the state at the revision shown.
    private func refresh(current: UInt64) {
        do {
            // GetChanges lists what History lists, oldest first, with who made each change.
            let changes = try client.send(.getChanges(from: 0, limit: Self.historyLimit))
            view.timeline.update(
                current: current,
                history: changes.reversed().map { HistoryEntry(revision: $0.revision, cause: $0.cause, time: $0.time) },
                callers: Dictionary(changes.map { ($0.revision, $0.callerText) }) { _, last in last })
        } catch {
            view.timeline.update(current: current, history: [])
            view.note = "GetChanges: \(Self.describe(error))"
        }
        let kept = Set(view.timeline.steps.map(\.revision))
        states = states.filter { kept.contains($0.key) }
        readShown()
    }

    /// Puts the state at the revision shown in the view, reading it with GetTreeAt when not read before.
    private func readShown() {
        view.state = nil
        view.stateError = nil
        guard let revision = view.timeline.shown?.revision else { return }
        if let state = states[revision] {
            view.state = state
            return
        }
        do {
            let state = try client.send(.getTreeAt(revision))
            states[revision] = state
            view.state = state
        } catch {
            view.stateError = "revision \(revision): \(Self.describe(error))"
        }
    }

    /// Reads the bytes waiting on standard input and acts on the keys they complete; true when one asks to quit.
    private func readKeys() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 0) > 0 {
            var byte: UInt8 = 0
            guard read(0, &byte, 1) == 1 else { return false }
            guard let key = keys.key(byte) else { continue }
            if handle(key) { return true }
            draw()
        }
        return false
    }

    /// Acts on one key; true when it asks to quit.
    private func handle(_ key: InspectKey) -> Bool {
        if let revision = view.confirming {
            view.confirming = nil
            if key == .other(UInt8(ascii: "y")) || key == .other(UInt8(ascii: "Y")) {
                revert(to: revision)
            } else {
                view.note = "revert to \(revision) cancelled"
            }
            return false
        }
        switch key {
        case .left, .right:
            view.timeline.move(by: key == .left ? -1 : 1)
            readShown()
        case .enter:
            view.confirming = view.timeline.shown?.revision
        case .other(let byte):
            return byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q")
        }
        return false
    }

    /// Revert to `revision`, expecting the current revision as last heard; shows the revision it made.
    private func revert(to revision: UInt64) {
        do {
            let current = view.timeline.current ?? 0
            let made = try client.send(.revert(to: revision, expectedRevision: current))
            // A revert that changes nothing is a no-op: navd answers the current revision.
            view.note = made == current ? "revision \(revision)'s tree is the current one: nothing changed"
                                        : "reverted to \(revision) as revision \(made)"
            refresh(current: made)
            view.timeline.showNewest()
            readShown()
        } catch {
            view.note = "revert refused: \(Self.describe(error))"
        }
    }

    /// An error as the status line shows it: `StaleRevision: message` for navd's refusals.
    static func describe(_ error: NavigatorError) -> String {
        if case .remote(_, let message) = error, let name = error.shortName {
            return message.isEmpty ? name : "\(name): \(message)"
        }
        return error.description
    }

    private func draw() {
        let size = terminal.size()
        writeOut(view.canvas(rows: size.rows, columns: size.columns).rendered())
    }
}
