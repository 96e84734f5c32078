import PropertyBased
import Testing
@testable import Navigation
import RandomRouteGraphs
import RouteFiles

/// Random route files reloaded over random states: afterwards, and after every Undo and Redo, the tree fits the graph.
@Suite(.timeLimit(.minutes(3)))
struct ReloadPropertyTests {
    /// Picks from a code, a few bits at a time (see `RandomRouteGraphs`).
    typealias Picker = RandomRouteGraphs.Picker

    /// A random route file (see `RandomRouteGraphs.randomYAML`).
    static func randomYAML(routesCode: Int, shapeCode: Int) -> String {
        RandomRouteGraphs.randomYAML(routesCode: routesCode, shapeCode: shapeCode)
    }

    static func randomGraph(_ routesCode: Int, shape shapeCode: Int) -> RouteGraph {
        let yaml = randomYAML(routesCode: routesCode, shapeCode: shapeCode)
        do {
            return try RouteGraph.load(yaml: yaml, file: "random.yaml")
        } catch {
            Issue.record("a random route file does not load: \(error)\n\(yaml)")
            return .demo
        }
    }

    static let routes = RandomRouteGraphs.routes

    /// The operation a random code stands for (see `RandomRouteGraphs.operation`).
    static func operation(_ code: Int) -> Navigation.Operation { RandomRouteGraphs.operation(code) }

    /// What in the coordinator's state does not fit its graph (empty when everything fits), checked without the
    /// coordinator's own repair code.
    static func misfits(_ coordinator: Coordinator) -> [String] {
        let graph = coordinator.graph
        let tree = coordinator.state.tree
        var found: [String] = []
        if tree.isTabbed != graph.isTabbed { found.append("tabbed \(tree.isTabbed), graph tabbed \(graph.isTabbed)") }
        if graph.isTabbed && tree.tabs.map(\.name) != graph.tabs.map(\.name) { found.append("tabs \(tree.tabs.map(\.name))") }
        if !graph.isTabbed && tree.tabs.count != 1 { found.append("\(tree.tabs.count) stacks") }
        if !tree.tabs.indices.contains(tree.selected) { found.append("selected \(tree.selected)") }
        var onTree: Set<String> = []
        for tab in tree.tabs {
            for (layer, frame) in tab.layers.enumerated() {
                if (layer == 0) != (frame.style == .root) { found.append("layer \(layer) of tab '\(tab.name)' is \(frame.style)") }
                for (index, screen) in frame.screens.enumerated() {
                    onTree.insert(screen.id)
                    guard let spec = graph.routes[screen.route] else {
                        found.append("\(screen.id): no route '\(screen.route)'")
                        continue
                    }
                    for (key, value) in screen.params where spec.params[key] != value.type {
                        found.append("\(screen.id): param '\(key)' is \(value.type), declared \(spec.params[key].map { "\($0)" } ?? "nowhere")")
                    }
                    for key in spec.required where screen.params[key] == nil { found.append("\(screen.id): lacks '\(key)'") }
                    let presentation = index == 0 ? frame.style : .push
                    if presentation != .root && !spec.presentations.contains(presentation) { found.append("\(screen.id): \(screen.route) as \(presentation)") }
                    for fact in spec.requires where coordinator.facts[fact] != .bool(true) { found.append("\(screen.id): \(screen.route) needs \(fact)") }
                }
            }
        }
        for (first, instance) in tree.flows {
            if graph.flows[instance.flow] == nil { found.append("flow '\(instance.flow)' (\(instance.id)) is not declared") }
            if !onTree.contains(first) { found.append("flow \(instance.id)'s first screen \(first) is not on the tree") }
        }
        if Set(coordinator.facts.keys) != Set(graph.facts.keys) { found.append("facts \(coordinator.facts.keys.sorted())") }
        for (name, value) in coordinator.facts where graph.facts[name].map({ $0.type != value.type }) ?? false { found.append("fact '\(name)' is \(value.type)") }
        return found
    }

    @Test func afterAReloadAndEveryUndoAndRedoTheTreeFitsTheGraph() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...999_999).array(of: 6...60)) { codes in
            // Most reloads keep the tabs and facts, so that many make no change and keep undo steps recorded
            // under the older graph.
            var coordinator = Coordinator(graph: Self.randomGraph(codes[0], shape: codes[0]))
            var time = testTime
            for (step, code) in codes.dropFirst().enumerated() {
                time += 1
                if step % 9 == 4 {
                    if code % 3 != 0 {
                        // Back to the roots first, so that the tree more often fits the next graph as it is.
                        _ = try? coordinator.perform(.dismissAll, at: time)
                        _ = try? coordinator.perform(.popToRoot, at: time)
                    }
                    let graph = Self.randomGraph(code, shape: code % 5 == 0 ? code : codes[0])
                    let before = coordinator
                    let result = coordinator.reload(graph, at: time)
                    #expect(coordinator.graph == graph)
                    if let change = result.change {
                        #expect(change.cause == "reconcile" && change.revision == before.revision + 1 && !change.isNoOp)
                        #expect(!coordinator.canUndo && !coordinator.canRedo)
                        #expect(result.changedProperties.isSuperset(of: change.changedProperties))
                        for ended in change.endedFlows { #expect(!coordinator.flows.contains { $0.id == ended.id } && ended.output == "") }
                        #expect(Set(change.endedFlows.map(\.id)).count == change.endedFlows.count)
                    } else {
                        #expect(coordinator.state.tree == before.state.tree && coordinator.facts == before.facts)
                        #expect(coordinator.revision == before.revision && result.warnings.isEmpty)
                    }
                    #expect(result.changedProperties.contains(.states) == (before.graph.states != graph.states))
                    let again = coordinator.reload(graph, at: time)
                    #expect(again.change == nil && again.changedProperties.isEmpty)
                } else {
                    _ = try? coordinator.perform(Self.operation(code), at: time)
                }
                let misfits = Self.misfits(coordinator)
                #expect(misfits.isEmpty, "after step \(step) (code \(code)): \(misfits)")
                if !misfits.isEmpty { return }
            }
        }
    }

    @Test func randomRouteFilesLoad() {
        for code in 0..<300 { _ = Self.randomGraph(code * 7919, shape: code * 104_729) }
    }
}
