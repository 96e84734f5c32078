import Testing
@testable import Navigation
import RouteFiles

/// A route file the reload tests change one line at a time (`Tests/Fixtures/routes/reload.yaml`).
let reloadBaseYAML = routeFile("reload")

/// Live reload: the graph is replaced and the state repaired to fit it, as one "reconcile" change or none.
@Suite(.timeLimit(.minutes(1)))
struct ReloadTests {
    /// The base graph with each `(old, new)` text replaced (every one must occur).
    static func graph(_ edits: (String, String)..., sourceLocation: SourceLocation = #_sourceLocation) throws -> RouteGraph {
        var yaml = reloadBaseYAML
        for (old, new) in edits {
            #expect(yaml.contains(old), "the base route file has no '\(old)'", sourceLocation: sourceLocation)
            yaml = yaml.replacing(old, with: new)
        }
        return try RouteGraph.load(yaml: yaml, file: "reload.yaml")
    }

    /// A fresh coordinator on the base graph: home(#1) start(#2), shop(#3) catalog(#4), more(#5) settings(#6).
    static func base() throws -> Coordinator { Coordinator(graph: try graph()) }

    @Test func aScreenWhoseRouteIsGoneGoesWithEverythingAboveIt() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))  // #7
        coordinator.must(push("detail", ["zoom": .double(1.5)]))  // #8
        coordinator.must(push("item", ["id": .int(3)]))  // #9
        let revision = coordinator.revision
        let newGraph = try Self.graph(("  detail: { params: { zoom: double } }\n", ""))
        let result = coordinator.reload(newGraph, at: testTime)
        let change = try #require(result.change)
        #expect(change.cause == "reconcile" && change.revision == revision + 1 && change.record?.operation == .reconcile)
        #expect(coordinator.revision == revision + 1 && coordinator.history(limit: 1).first?.cause == "reconcile")
        #expect(coordinator.path == [entry("#2", "start", .root), entry("#7", "editor")])
        #expect(result.warnings == ["tab 'home': removed screen 'detail' (#8), whose route is no longer in the route graph, and the 1 screen(s) above it"])
        #expect(change.changedProperties == [.revision, .depth, .top, .topID, .canUndo, .backTarget])
        #expect(result.changedProperties == change.changedProperties)
        #expect(!coordinator.canUndo && !coordinator.canRedo && coordinator.graph == newGraph)
        #expect(change.endedFlows.isEmpty)
    }

    @Test func aScreenWhoseParamsNoLongerFitGoes() throws {
        var coordinator = try Self.base()
        coordinator.must(push("detail", ["zoom": .double(2)]))  // #7
        coordinator.must(push("item", ["id": .int(3)]))  // #8
        coordinator.must(push("detail"))  // #9
        var wrongType = coordinator
        let result = wrongType.reload(try Self.graph(("id: { type: int", "id: { type: string")), at: testTime)
        #expect(result.change != nil)
        #expect(wrongType.routes == ["start", "detail"])
        #expect(result.warnings == ["tab 'home': removed screen 'item' (#8), whose params no longer fit route 'item' (param 'id' of route 'item' must be string (s), not an int), and the 1 screen(s) above it"])

        var newRequired = coordinator
        let required = newRequired.reload(try Self.graph(("zoom: double }", "zoom: double, mode: { type: string, required: true } }")), at: testTime)
        #expect(newRequired.routes == ["start"])
        #expect(required.warnings == ["tab 'home': removed screen 'detail' (#7), whose params no longer fit route 'detail' (route 'detail' needs param 'mode' (string)), and the 2 screen(s) above it"])

        var undeclared = coordinator
        _ = undeclared.reload(try Self.graph(("detail: { params: { zoom: double } }", "detail: {}")), at: testTime)
        #expect(undeclared.routes == ["start"])

        // A value that a call could still send (an int for a double) is not what the screen stores: it goes too.
        var widened = coordinator
        let widenedResult = widened.reload(try Self.graph(("id: { type: int", "id: { type: double")), at: testTime)
        #expect(widened.routes == ["start", "detail"])
        #expect(widenedResult.warnings == ["tab 'home': removed screen 'item' (#8), whose params no longer fit route 'item' (param 'id' is double now), and the 1 screen(s) above it"])

        // A new optional param leaves every screen as it is.
        var optional = coordinator
        let kept = optional.reload(try Self.graph(("zoom: double }", "zoom: double, mode: string }")), at: testTime)
        // Only the graph generation moves on (Export names the graph of each change by it).
        var unchanged = optional.state
        #expect(unchanged.graphGeneration == coordinator.state.graphGeneration + 1)
        unchanged.graphGeneration = coordinator.state.graphGeneration
        #expect(kept.change == nil && unchanged == coordinator.state)
    }

    @Test func aScreenWhosePresentationIsNoLongerAllowedGoes() throws {
        var sheet = try Self.base()
        sheet.must(present("help", "sheet"))  // #7
        sheet.must(push("editor"))  // #8
        var sheetGone = sheet
        let result = sheetGone.reload(try Self.graph(("help: { presentations: [sheet, cover] }", "help: { presentations: [cover] }")), at: testTime)
        #expect(sheetGone.path == [entry("#2", "start", .root)])
        #expect(result.warnings == ["tab 'home': removed screen 'help' (#7), which route 'help' no longer allows as sheet, and the 1 screen(s) above it"])

        var pushedInSheet = sheet
        let pushed = pushedInSheet.reload(try Self.graph(("editor: { presentations: [push, sheet] }", "editor: { presentations: [sheet] }")), at: testTime)
        #expect(pushedInSheet.path == [entry("#2", "start", .root), entry("#7", "help", .sheet)])
        #expect(pushed.warnings == ["tab 'home': removed screen 'editor' (#8), which route 'editor' no longer allows as push"])

        var base = try Self.base()
        base.must(push("editor"))  // #7
        base.must(present("editor", "sheet"))  // #8
        _ = base.reload(try Self.graph(("editor: { presentations: [push, sheet] }", "editor: { presentations: [sheet] }")), at: testTime)
        #expect(base.path == [entry("#2", "start", .root)])
    }

    @Test func aStackRootThatGoesBecomesAFreshScreenOfItsTabsRoot() throws {
        var coordinator = try Self.base()
        coordinator.must(.selectTab("shop"))
        coordinator.must(push("item", ["id": .int(1)]))  // #7
        let newGraph = try Self.graph(
            ("  - { name: shop, root: catalog }", "  - { name: shop, root: start }"), ("  catalog: {}\n", ""),
            ("  - { name: more, root: settings }", "  - { name: more, root: start }"))
        let result = coordinator.reload(newGraph, at: testTime)
        #expect(coordinator.path == [entry("#8", "start", .root)])
        #expect(result.warnings == ["tab 'shop': removed screen 'catalog' (#4), whose route is no longer in the route graph, and the 1 screen(s) above it; its root is now 'start'"])
        // A root whose route still fits stays, although its tab's root route changed.
        #expect(coordinator.nodes.contains(Node(id: "#6", parentID: "#5", kind: .root, name: "settings")))
    }

    @Test func aTabThatIsGoneIsDroppedAndTheSelectionMovesToTheFirstTab() throws {
        var coordinator = try Self.base()
        coordinator.must(.selectTab("more"))
        coordinator.must(push("editor"))  // #7
        let result = coordinator.reload(try Self.graph(("  - { name: more, root: settings }\n", "")), at: testTime)
        #expect(coordinator.tabs == ["home", "shop"] && coordinator.selectedTab == "home")
        #expect(coordinator.path == [entry("#2", "start", .root)])
        #expect(result.warnings == [
            "tab 'more' is no longer in the route graph; dropped it and its screens",
            "the selected tab 'more' is gone; selected 'home'",
        ])
        #expect(result.changedProperties == [.revision, .depth, .top, .topID, .selectedTab, .tabs, .canUndo, .backTarget])
    }

    @Test func switchingBetweenTabbedAndUntabbedStartsAFreshTree() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))  // #7
        let untabbed = try RouteGraph.load(yaml: "root: start\nroutes:\n  start: {}\n  editor: {}\n", file: "single.yaml")
        let result = coordinator.reload(untabbed, at: testTime)
        #expect(coordinator.path == [entry("#8", "start", .root)] && coordinator.tabs.isEmpty && coordinator.selectedTab == "")
        #expect(result.warnings == [
            "the route graph is a single stack now but the tree had tabs; starting from a fresh tree",
            "fact 'count' is no longer in the route graph; dropped it", "fact 'unlocked' is no longer in the route graph; dropped it",
        ])
        #expect(result.changedProperties.isSuperset(of: [.tabs, .selectedTab, .facts]))
        let back = coordinator.reload(try Self.graph(), at: testTime)
        #expect(back.warnings.first == "the route graph has tabs now but the tree was a single stack; starting from a fresh tree")
        #expect(coordinator.nodes.first == Node(id: "#9", parentID: "", kind: .tab, name: "home"))
        #expect(coordinator.facts == ["unlocked": .bool(false), "count": .int(0)])
    }

    @Test func factsNoLongerDeclaredAreDroppedAndNewOrRetypedOnesTakeTheirDefaults() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))
        coordinator.must(.setFacts(["unlocked": .bool(true), "count": .int(5)]))
        let tree = coordinator.state.tree
        let retyped = try Self.graph(
            ("count: { type: int, default: 0 }", "count: { type: string, default: none }\n  theme: { type: string, default: dark }"))
        let result = coordinator.reload(retyped, at: testTime)
        let change = try #require(result.change)
        #expect(coordinator.facts == ["unlocked": .bool(true), "count": .string("none"), "theme": .string("dark")])
        #expect(result.warnings == [
            "fact 'count' is string now (it was int); it is back at its default none",
            "fact 'theme' is new in the route graph; it starts at its default dark",
        ])
        #expect(change.cause == "reconcile" && change.changedProperties == [.revision, .facts, .canUndo])
        #expect(coordinator.state.tree == tree && !coordinator.canUndo)
        let dropped = coordinator.reload(try Self.graph(("  count: { type: int, default: 0 }\n", "")), at: testTime)
        #expect(coordinator.facts == ["unlocked": .bool(true)])
        #expect(dropped.warnings == [
            "fact 'count' is no longer in the route graph; dropped it", "fact 'theme' is no longer in the route graph; dropped it",
        ])
    }

    @Test func flowsNoLongerDeclaredAreAbandoned() throws {
        var coordinator = try Self.base()
        coordinator.must(push("secret"))  // redirected: pin #7, flow #8 keeping the push
        #expect(coordinator.flows.map(\.id) == ["#8"])
        let withoutFlows = try Self.graph(("flows:\n  unlock: { start: pin, outputs: { ok: {} } }\nguards:\n  unlocked: { start: unlock, resume-on: ok }\n", ""))
        let result = coordinator.reload(withoutFlows, at: testTime)
        let change = try #require(result.change)
        #expect(change.endedFlows == [FlowEnd(id: "#8", flow: "unlock", output: "")])
        #expect(coordinator.flows.isEmpty && coordinator.routes == ["start", "pin"])
        #expect(result.warnings == ["flow 'unlock' (#8) is no longer in the route graph; its screens stay, it no longer encloses them"])
        // The kept request went with the instance: the fact turning true resumes nothing.
        coordinator.must(.setFacts(["unlocked": .bool(true)]))
        #expect(coordinator.routes == ["start", "pin"])
    }

    @Test func aFlowWhoseFirstScreenGoesIsAbandoned() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))  // #7
        coordinator.must(.start(flow: "unlock", params: [:]))  // pin #8, flow #9
        let result = coordinator.reload(try Self.graph(("  editor: { presentations: [push, sheet] }\n", "")), at: testTime)
        #expect(result.change?.endedFlows == [FlowEnd(id: "#9", flow: "unlock", output: "")])
        #expect(coordinator.flows.isEmpty && coordinator.routes == ["start"])
    }

    @Test func guardsAreCheckedAgainstTheNewGraph() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))  // #7
        coordinator.must(push("pin"))  // #8
        let result = coordinator.reload(try Self.graph(("editor: { presentations: [push, sheet] }", "editor: { presentations: [push, sheet], requires: [unlocked] }")), at: testTime)
        #expect(coordinator.routes == ["start"])
        #expect(result.warnings == ["tab 'home': removed screen 'editor' (#7), whose route requires fact 'unlocked', which is not true, and the 1 screen(s) above it"])
    }

    @Test func anUnchangedGraphMakesNoChange() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))
        coordinator.must(.undo)
        let before = coordinator.state
        let result = coordinator.reload(try Self.graph(), at: testTime)
        #expect(result.change == nil && result.warnings.isEmpty && result.changedProperties.isEmpty)
        #expect(coordinator.state == before && coordinator.canRedo)
    }

    @Test func aCommentOnlyEditGivesAnEqualGraphAndNoChange() throws {
        let commented = try RouteGraph.load(yaml: "# a comment\n" + reloadBaseYAML.replacing("  pin: {}", with: "  pin: {}   # the PIN pad") + "\n# the end\n", file: "reload.yaml")
        #expect(commented == (try Self.graph()))
        #expect(commented != (try Self.graph(("  pin: {}", "  pin: { title: PIN }"))))
        var coordinator = try Self.base()
        coordinator.must(push("editor"))
        let result = coordinator.reload(commented, at: testTime)
        #expect(result.change == nil && coordinator.revision == 2 && coordinator.canUndo)
    }

    @Test func aChangeOfNamedStatesOnlyIsAnnouncedWithoutARevision() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))
        let result = coordinator.reload(try Self.graph(("  home: /home", "  home: /home\n  extra: /shop")), at: testTime)
        #expect(result.change == nil && result.changedProperties == [.states])
        #expect(coordinator.revision == 2 && coordinator.canUndo && coordinator.namedStates == ["home": "/home", "extra": "/shop"])
        coordinator.must(.open("extra"))
        #expect(coordinator.selectedTab == "shop")
    }

    @Test func theNewGraphsHandlersAndRoutesApplyFromTheNextCallOn() throws {
        var coordinator = try Self.base()
        #expect(coordinator.refuse(send("go"))?.name == "UnhandledEvent")
        #expect(coordinator.refuse(push("extra"))?.name == "UnknownRoute")
        _ = coordinator.reload(try Self.graph(("  start: {}", "  start: { on: { go: { push: extra } } }\n  extra: {}")), at: testTime)
        coordinator.must(send("go"))
        #expect(coordinator.routes == ["start", "extra"])
    }

    @Test func undoAndRedoRepairTheTreeTheyBringBack() throws {
        var coordinator = try Self.base()
        coordinator.must(push("editor"))  // #7
        coordinator.must(push("detail"))  // #8
        coordinator.must(.popToRoot)
        coordinator.must(push("item", ["id": .int(1)]))  // #9
        coordinator.must(.pop)
        // The tree fits the new graph, so the reload makes no change and undo and redo stay.
        let result = coordinator.reload(try Self.graph(("  detail: { params: { zoom: double } }\n", ""), ("id: { type: int", "id: { type: string")), at: testTime)
        #expect(result.change == nil && coordinator.canUndo)
        // The newest steps (item #9, then the root alone) equal the current tree once repaired: passed over; the
        // one before them brings editor back, without detail.
        let undo = coordinator.must(.undo)
        #expect(undo?.cause == "undo" && undo?.revision == 7)
        #expect(coordinator.path == [entry("#2", "start", .root), entry("#7", "editor")] && coordinator.canUndo)
        coordinator.must(.redo)
        #expect(coordinator.path == [entry("#2", "start", .root)])
        // What is left to redo (item #9, the root alone) repairs to the current tree.
        #expect(coordinator.refuse(.redo)?.name == "NothingToRedo")
    }

    @Test func aReloadsRecordReplaysOnThePreviousStateUnderTheNewGraph() throws {
        var coordinator = try Self.base()
        coordinator.must(push("detail", ["zoom": .double(1)]))
        let saved = coordinator.state
        let newGraph = try Self.graph(("detail: { params: { zoom: double } }", "detail: {}"))
        let record = try #require(coordinator.reload(newGraph, at: testTime).change?.record)
        #expect(try JournalRecord.decode(record.encoded()) == record)
        // navd writes a snapshot after every reload, so a replayed reconcile starts from the new graph's generation.
        var savedUnderNewGraph = saved
        savedUnderNewGraph.graphGeneration += 1
        var replayed = Coordinator(graph: newGraph, restoring: savedUnderNewGraph)
        _ = try replayed.replay(record)
        #expect(replayed.state == coordinator.state)
    }
}
