import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// `kill -9`, then an edit of the route file, then a start (`docs/durability.md#edits-while-navd-is-down`): every answered change
/// is replayed under the graph it was answered under, then the state is fitted to the edited file
/// as one `reconcile` revision (each repair logged), the next change is accepted after it, and a
/// clean restart keeps everything. Once per kind of edit.
@Suite("navd crash then edit", .serialized, .timeLimit(.minutes(3)), .enabled(if: EndToEnd.navdAvailable))
struct NavdCrashThenEditTests {
    /// The sequence of the report: `--routes r.yaml` with a route `extra`, `navctl push orange`,
    /// `push extra`, `push yellow` (revisions 2, 3, 4), `kill -9`, `extra` deleted from the file,
    /// start. Before, navd served revision 2 and answered every change after with `StorageFailed`
    /// (`UNIQUE constraint failed: journal.revision`), restarts included.
    @Test func aRouteRemovedWhileNavdWasDownIsRepairedAfterEveryAnsweredChangeIsReplayed() throws {
        let navd = try NavdCrashEdit(routes: RouteFileFixture.graph(including: true))
        for route in ["orange", "extra", "yellow"] {
            let pushed = try navd.bus.navctl("push", route)
            #expect(pushed.status == 0, "\(pushed)")
        }
        #expect(try navd.history().map(\.revision) == [4, 3, 2])
        try navd.crashEditAndStart(RouteFileFixture.graph(including: false))
        #expect(try navd.routes() == ["home", "orange"], "extra and the screen above it are repaired away")
        try navd.expectReplayedThenRepaired(
            [(2, "push"), (3, "push"), (4, "push")], warningMentioning: "removed screen 'extra'"
        ) { navd in
            let pushed = try navd.bus.navctl("push", "yellow")
            #expect(pushed.status == 0, "\(pushed)")
            return UInt64(pushed.stdout.split(separator: " ").first ?? "") ?? 0
        }
        #expect(try navd.routes() == ["home", "orange", "yellow"])
    }

    @Test func paramsRetypedWhileNavdWasDown() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.base)
        let main = Navigator.objectPath.rawValue
        try navd.client.push("orange", at: main)
        try navd.client.push("item", [("n", .int64(7))], at: main)
        try navd.client.push("yellow", at: main)
        try navd.crashEditAndStart(EditedRouteFiles.edited("n: { type: int, required: true }", "n: { type: string, required: true }"))
        #expect(try navd.routes() == ["home", "orange"], "item no longer fits, and goes with yellow above it")
        try navd.expectReplayedThenRepaired(
            [(2, "push"), (3, "push"), (4, "push")], warningMentioning: "'item'"
        ) { try $0.client.push("item", [("n", .string("seven"))], at: main) }
    }

    @Test func aPresentationRemovedWhileNavdWasDown() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.base)
        let main = Navigator.objectPath.rawValue
        try navd.client.push("orange", at: main)
        _ = try navd.client.navigator("Present", [.string("help"), .emptyParams, .string("sheet")], at: main)
        #expect(try navd.routes() == ["home", "orange", "help"])
        try navd.crashEditAndStart(EditedRouteFiles.edited("help: { presentations: [sheet] }", "help: { presentations: [cover] }"))
        #expect(try navd.routes() == ["home", "orange"])
        try navd.expectReplayedThenRepaired([(2, "push"), (3, "present")], warningMentioning: "'help'") { navd in
            try navd.client.navigator("Present", [.string("help"), .emptyParams, .string("cover")], at: main)[0].uint64Value ?? 0
        }
    }

    @Test func tabbedToUntabbedWhileNavdWasDown() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.base)
        let main = Navigator.objectPath.rawValue
        _ = try navd.client.navigator("SelectTab", [.string("other")], at: main)
        try navd.client.push("orange", at: main)
        let oldIds = try navd.client.navigatorState(at: main).path.map(\.id)
        try navd.crashEditAndStart(EditedRouteFiles.untabbed)
        let state = try navd.client.navigatorState(at: main)
        #expect(state.tab == "" && state.path.map(\.route) == ["home"], "a fresh single stack")
        #expect(!oldIds.contains(state.path[0].id), "ids keep counting")
        try navd.expectReplayedThenRepaired([(2, "selecttab"), (3, "push")], warningMentioning: "single stack now") {
            try $0.client.push("yellow", at: main)
        }
    }

    @Test func untabbedToTabbedWhileNavdWasDown() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.untabbed)
        let main = Navigator.objectPath.rawValue
        try navd.client.push("orange", at: main)
        // A link of the single stack: under the tabbed graph `/home` would name a tab.
        _ = try navd.client.navigator("Open", [.string("/home/yellow")], at: main)
        #expect(try navd.routes() == ["home", "yellow"])
        try navd.crashEditAndStart(EditedRouteFiles.base)
        let state = try navd.client.navigatorState(at: main)
        #expect(state.tab == "main" && state.path.map(\.route) == ["home"], "a fresh tabbed tree")
        try navd.expectReplayedThenRepaired([(2, "push"), (3, "open")], warningMentioning: "has tabs now") {
            try $0.client.push("orange", at: main)
        }
    }

    @Test func factsChangedWhileNavdWasDown() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.base)
        let main = Navigator.objectPath.rawValue
        _ = try navd.client.navigator(NavigatorMethod.setFacts.name, [.vardict([("member", .boolean(true))])], at: main)
        try navd.client.push("orange", at: main)
        try navd.crashEditAndStart(
            EditedRouteFiles.edited("  member: { type: bool, default: false }\n", "  points: { type: int, default: 3 }\n"))
        let facts = try navd.client.property("Facts", at: main).stringKeyedPairs ?? []
        #expect(facts.map(\.0) == ["points"] && facts.first?.1 == .int64(3), "member is dropped, points takes its default: \(facts)")
        #expect(try navd.routes() == ["home", "orange"], "the tree fits and stays")
        try navd.expectReplayedThenRepaired([(2, "setfacts"), (3, "push")], warningMentioning: "member") {
            try $0.client.navigator(NavigatorMethod.setFacts.name, [.vardict([("points", .int64(4))])], at: main)[0].uint64Value ?? 0
        }
    }

    @Test func aFlowInProgressWhoseFlowWasRemovedWhileNavdWasDownIsAbandoned() throws {
        let navd = try NavdCrashEdit(routes: EditedRouteFiles.base)
        let main = Navigator.objectPath.rawValue
        try navd.client.push("orange", at: main)
        _ = try navd.client.navigator(NavigatorMethod.start.name, [.string("buy"), .emptyParams], at: main)
        #expect(try navd.client.navigator(NavigatorMethod.getFlows.name, at: main).first?.arrayValues?.count == 1)
        try navd.crashEditAndStart(EditedRouteFiles.edited(EditedRouteFiles.flow, ""))
        #expect(try navd.client.navigator(NavigatorMethod.getFlows.name, at: main).first?.arrayValues?.count == 0, "the flow is abandoned")
        #expect(try navd.routes() == ["home", "orange", "pay"], "its screens stay")
        #expect(navd.client.navigatorFailure(NavigatorMethod.finish.name, [.string("done"), .emptyParams], at: main)?.name
                == NavigatorErrorName(.notInFlow).fullName)
        try navd.expectReplayedThenRepaired([(2, "push"), (3, "start")], warningMentioning: "flow 'buy'") {
            try $0.client.push("yellow", at: main)
        }
    }

    /// A reload that changes the graph but repairs nothing still records the new graph before
    /// any change made under it is journaled: a route it added, used, then `kill -9`, replays.
    @Test func aRouteAddedByAReloadAndUsedBeforeACrashIsReplayed() throws {
        let navd = try NavdCrashEdit(routes: RouteFileFixture.graph(including: false))
        let main = Navigator.objectPath.rawValue
        try navd.write(RouteFileFixture.graph(including: true))
        #expect(try navd.client.reload(at: main) == 1, "nothing to repair")
        #expect(try navd.client.push("extra", at: main) == 2)
        // The file loses `extra` again while navd is down: replayed under the graph it was
        // answered under, then repaired.
        try navd.crashEditAndStart(RouteFileFixture.graph(including: false))
        #expect(try navd.history().prefix(2).map { "\($0.revision) \($0.cause)" } == ["3 reconcile", "2 push"], "\(navd.navd.stderr)")
        #expect(try navd.routes() == ["home"])
        // And with the file as it was at the kill, the state comes back exactly.
        try navd.write(RouteFileFixture.graph(including: true))
        #expect(try navd.client.reload(at: main) == 3)
        #expect(try navd.client.push("extra", at: main) == 4)
        let again = try navd.snapshot()
        try navd.crashEditAndStart(RouteFileFixture.graph(including: true))
        #expect(try navd.snapshot() == again)
    }
}
