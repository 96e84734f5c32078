@testable import NavdClient
import Testing

/// `FollowRules` with no bus: each test is a literal table, one row per event with the time it is heard
/// and the actions the rules answer, checked row by row.
@Suite("The follow rules", .timeLimit(.minutes(1)))
struct FollowRulesTests {
    typealias Row = (event: FollowRules.Event, at: Int64, actions: [FollowRules.Action])

    /// Feeds the rows in order to fresh rules following `app`, expecting each row's actions.
    func follow(app: String? = nil, _ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var rules = FollowRules(app: app)
        for (index, row) in rows.enumerated() {
            let actions = rules.handle(row.event, now: row.at)
            #expect(actions == row.actions, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
        }
    }

    /// A state at `revision` with `routes` pushed on `red`.
    func state(_ revision: UInt64, _ routes: String...) -> VisibleState {
        VisibleState(revision: revision, tab: "rainbow", path: (["red"] + routes).map { route in
            Entry(id: "\(route)-1", route: route, presentation: route == "red" ? .root : .push)
        })
    }

    func signal(_ cause: String, _ state: VisibleState) -> FollowRules.Event {
        .stackChanged(StateChange(cause: cause, state: state))
    }

    func show(_ cause: String, _ state: VisibleState) -> FollowRules.Action {
        .show(StateChange(cause: cause, state: state))
    }

    let finished = FlowFinished(revision: 3, end: FlowEnd(id: "#9", flow: "auth", output: "signed-in"))

    @Test("the first state is read; then each next revision is shown, a stale or repeated one is not")
    func inOrder() {
        follow([
            (.started, 0, [.fetchState]),
            (.stateRead(state(1)), 0, [.newBaseline, show("state", state(1))]),
            (signal("push", state(2, "orange")), 10, [show("push", state(2, "orange"))]),
            (signal("push", state(2, "orange")), 11, []),
            (signal("pop", state(1)), 12, []),
            (signal("push", state(3, "yellow")), 13, [show("push", state(3, "yellow"))]),
            (.flowFinished(finished), 13, [.flowFinished(finished)]),
            (.propertiesChanged, 14, []),
            (.tick, 60_000, []),
        ])
    }

    @Test("a revision gap fetches the state: the signal's cause when the answer is its revision, else `state`")
    func revisionGap() {
        follow([
            (.started, 0, [.fetchState]),
            (.stateRead(state(1)), 0, [.newBaseline, show("state", state(1))]),
            (signal("push", state(3, "yellow")), 10, [.fetchState]),
            (.stateRead(state(3, "yellow")), 11, [show("push", state(3, "yellow"))]),
            (signal("push", state(6, "blue")), 20, [.fetchState]),
            (.stateRead(state(7, "green")), 21, [show("state", state(7, "green"))]),
            (signal("pop", state(6, "blue")), 22, []),
            (signal("push", state(8, "green", "blue")), 23, [show("push", state(8, "green", "blue"))]),
        ])
    }

    @Test("while a read is under way a second gap asks for no second read; an answer a signal overtook is dropped")
    func readUnderWay() {
        follow([
            (.started, 0, [.fetchState]),
            (signal("push", state(2, "orange")), 1, [.newBaseline, show("push", state(2, "orange"))]),
            (.stateRead(state(2, "orange")), 2, []),
            (signal("push", state(4, "blue")), 3, [.fetchState]),
            (signal("push", state(6, "green")), 4, []),
            (.stateRead(state(6, "green")), 5, [show("push", state(6, "green"))]),
            (signal("push", state(9, "red")), 6, [.fetchState]),
            (signal("undo", state(10)), 7, []),
            (.stateRead(state(5)), 8, []),
        ])
    }

    @Test("navd gone, then back with its `restore` state, whatever its revision; then back with `start` at 1")
    func goneAndRestored() {
        follow([
            (.started, 0, [.fetchState]),
            (.stateRead(state(7, "orange")), 0, [.newBaseline, show("state", state(7, "orange"))]),
            (.navdVanished, 100, [.gone]),
            (.navdVanished, 101, []),
            (.navdAppeared, 1_000, [.wait(until: 1_500)]),
            (signal("restore", state(7, "orange")), 1_100, [.newBaseline, show("restore", state(7, "orange"))]),
            (.tick, 1_500, []),
            (signal("push", state(8, "orange", "blue")), 1_600, [show("push", state(8, "orange", "blue"))]),
            (.navdVanished, 2_000, [.gone]),
            (.navdAppeared, 3_000, [.wait(until: 3_500)]),
            (signal("start", state(1)), 3_010, [.newBaseline, show("start", state(1))]),
            (signal("push", state(2, "yellow")), 3_020, [show("push", state(2, "yellow"))]),
        ])
    }

    @Test("the start-up wait: a new owner that sends no start-up signal within 500 ms is asked for its state")
    func startupWait() {
        #expect(FollowRules.startupSignalWaitMilliseconds == 500)
        follow([
            (.started, 0, [.fetchState]),
            (.stateRead(state(3)), 0, [.newBaseline, show("state", state(3))]),
            (.navdVanished, 10, [.gone]),
            (.navdAppeared, 1_000, [.wait(until: 1_500)]),
            (.tick, 1_200, [.wait(until: 1_500)]),
            (.flowFinished(finished), 1_499, [.flowFinished(finished), .wait(until: 1_500)]),
            (.tick, 1_500, [.fetchState]),
            (.stateRead(state(9, "green")), 1_501, [.newBaseline, show("state", state(9, "green"))]),
            (.tick, 2_000, []),
        ])
        // A late event ends the wait as well as a tick; the fetch comes after the wait's own actions.
        follow([
            (.started, 0, [.fetchState]),
            (.readFailed, 0, [.gone]),
            (.navdAppeared, 100, [.wait(until: 600)]),
            (.propertiesChanged, 900, [.fetchState]),
            (.readFailed, 901, []),
            (.navdAppeared, 2_000, [.wait(until: 2_500)]),
            (.navdVanished, 2_100, []),
            (.tick, 2_600, []),
        ])
    }

    @Test("a followed app removed then added: gone, and back before its state; other apps change nothing")
    func appGoneAndBack() {
        follow(app: "shop", [
            (.started, 0, [.fetchState]),
            (.stateRead(state(4)), 0, [.newBaseline, show("state", state(4))]),
            (.appChanged(.removed("blog")), 10, []),
            (.appChanged(.removed("shop")), 20, [.gone]),
            (.appChanged(.added("blog")), 30, []),
            (.appChanged(.added("shop")), 40, [.wait(until: 540)]),
            (signal("restore", state(4)), 50, [.newBaseline, .back, show("restore", state(4))]),
            (.appChanged(.removed("shop")), 60, [.gone]),
            (.appChanged(.added("shop")), 70, [.wait(until: 570)]),
            (.tick, 570, [.fetchState]),
            (.stateRead(state(4)), 571, [.newBaseline, .back, show("state", state(4))]),
        ])
    }

    @Test("an app not there at start: gone, then back when it is added; the default navigator has no back marker")
    func appAbsentAtStart() {
        follow(app: "shop", [
            (.started, 0, [.fetchState]),
            (.readFailed, 0, [.gone]),
            (.appChanged(.added("shop")), 10, [.wait(until: 510)]),
            (signal("start", state(1)), 20, [.newBaseline, .back, show("start", state(1))]),
        ])
        follow([
            (.started, 0, [.fetchState]),
            (.readFailed, 0, [.gone]),
            (.appChanged(.removed("shop")), 5, []),
            (.appChanged(.added("shop")), 5, []),
            (.navdAppeared, 10, [.wait(until: 510)]),
            (signal("start", state(1)), 20, [.newBaseline, show("start", state(1))]),
        ])
    }

    @Test("an identical state is not shown twice in a row; the same state with another cause is, and so is one after gone")
    func identicalOnce() {
        follow([
            (.started, 0, [.fetchState]),
            (.stateRead(state(5)), 0, [.newBaseline, show("state", state(5))]),
            (signal("restore", state(5)), 1, [show("restore", state(5))]),
            (signal("restore", state(5)), 2, []),
            (.navdVanished, 3, [.gone]),
            (signal("restore", state(5)), 4, [.newBaseline, show("restore", state(5))]),
        ])
    }

    @Test("what the client hears becomes the rules' events; the bus going away is left to the driver")
    func clientEvents() {
        let change = StateChange(cause: "push", state: state(2, "orange"))
        #expect(FollowRules.Event(.stackChanged(change)) == .stackChanged(change))
        #expect(FollowRules.Event(.navdAppeared(owner: ":1.4")) == .navdAppeared)
        #expect(FollowRules.Event(.navdVanished) == .navdVanished)
        #expect(FollowRules.Event(.appChanged(.added("shop"))) == .appChanged(.added("shop")))
        #expect(FollowRules.Event(.woken) == .tick)
        #expect(FollowRules.Event(.timedOut) == .tick)
        #expect(FollowRules.Event(.busDisconnected) == nil)
    }
}
