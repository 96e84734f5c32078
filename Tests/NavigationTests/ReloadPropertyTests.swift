import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// Random route files reloaded over random states: afterwards, and after every Undo and Redo, the tree fits the graph.
@Suite(.timeLimit(.minutes(3)))
struct ReloadPropertyTests {
    /// Picks from a code, a few bits at a time.
    struct Picker {
        var state: UInt64
        init(_ code: Int) { state = UInt64(code) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D }
        mutating func pick(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(count))
        }
        mutating func chance(_ percent: Int) -> Bool { pick(100) < percent }
    }

    /// A random route file over a fixed set of names: routes (picked by `routesCode`) come and go and change
    /// params, presentations and `requires`; tabs come and go (or there are none), facts change type, and the
    /// flow and the guard come and go (picked by `shapeCode`).
    static func randomYAML(routesCode: Int, shapeCode: Int) -> String {
        var shape = Picker(shapeCode)
        var picker = Picker(routesCode)
        let unlocked = ["unlocked: { type: bool, default: false }", "unlocked: { type: bool, default: true }", "unlocked: { type: int, default: 1 }", nil][shape.pick(4)]
        let unlockedIsBool = unlocked?.contains("bool") ?? false
        let tabbed = shape.chance(75)
        var tabs = ["- { name: home, root: start }"]
        if shape.chance(70) { tabs.append("- { name: shop, root: \(["catalog", "start"][shape.pick(2)]) }") }
        let moreRoot = ["settings", "start", nil][shape.pick(3)]
        if let moreRoot { tabs.append("- { name: more, root: \(moreRoot) }") }
        if shape.chance(30) { tabs.append("- { name: extra, root: catalog }") }
        if tabs.count > 1 && shape.chance(25) { tabs.swapAt(0, 1) }
        let root = ["start", "catalog"][shape.pick(2)]
        var facts: [String] = unlocked.map { [$0] } ?? []
        if let count = ["count: { type: int, default: 0 }", "count: { type: string, default: none }", nil][shape.pick(3)] { facts.append(count) }
        if shape.chance(30) { facts.append("theme: { type: string, default: dark }") }
        let states = shape.chance(50)

        let requires = unlockedIsBool ? ", requires: [unlocked]" : ""
        var routes = ["start: {}", ["catalog: {}", "catalog: { params: { q: string } }"][picker.pick(2)]]
        if (tabbed && moreRoot == "settings") || picker.chance(70) { routes.append("settings: {}") }
        if let item = ["item: { params: { id: { type: int, required: true } } }", "item: { params: { id: { type: string, required: true } } }",
                       "item: { params: { id: double } }", nil][picker.pick(4)] { routes.append(item) }
        if let detail = ["detail: { params: { zoom: double } }", "detail: { params: { zoom: int } }", "detail: {}",
                         "detail: { params: { zoom: double, mode: { type: string, required: true } } }", nil][picker.pick(5)] { routes.append(detail) }
        if let editor = ["editor: { presentations: [push, sheet] }", "editor: { presentations: [sheet] }", "editor: { presentations: [push] }",
                         "editor: { presentations: [push, sheet]\(requires) }", nil][picker.pick(5)] { routes.append(editor) }
        if let help = ["help: { presentations: [sheet, cover] }", "help: { presentations: [cover] }", "help: { presentations: [push, sheet] }", nil][picker.pick(4)] {
            routes.append(help)
        }
        if let secret = ["secret: {\(requires.dropFirst(2)) }", "secret: {}", nil][picker.pick(3)] { routes.append(secret) }
        let pin = picker.chance(80)
        if pin { routes.append("pin: {}") }

        var yaml = tabbed ? "tabs:\n" + tabs.map { "  \($0)\n" }.joined() : "root: \(root)\n"
        yaml += "routes:\n" + routes.map { "  \($0)\n" }.joined()
        if !facts.isEmpty { yaml += "facts:\n" + facts.map { "  \($0)\n" }.joined() }
        let flow = pin && picker.chance(80)
        if flow { yaml += "flows:\n  unlock: { start: pin, outputs: { ok: {} } }\n" }
        if flow && unlockedIsBool && picker.chance(80) { yaml += "guards:\n  unlocked: { start: unlock, resume-on: ok }\n" }
        if states { yaml += "states:\n  top: \(tabbed ? "/home" : "/")\n" }
        return yaml
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

    static let routes = ["start", "catalog", "settings", "item", "detail", "editor", "help", "secret", "pin"]

    /// The operation a random code stands for.
    static func operation(_ code: Int) -> Navigation.Operation {
        let pick = code / 13
        let route = routes[pick % routes.count]
        let params: InputParams = switch pick % 6 {
        case 0: ["id": .int(Int64(pick % 9))]
        case 1: ["id": .string("a")]
        case 2: ["zoom": .double(1.5)]
        case 3: ["zoom": .int(2), "mode": .string("m")]
        case 4: ["q": .string("x")]
        default: [:]
        }
        switch code % 13 {
        case 0, 1, 2: return .push(route: route, params: params)
        case 3: return .present(route: route, params: params, style: pick % 2 == 0 ? "sheet" : "cover")
        case 4: return .pop
        case 5: return .dismiss
        case 6: return .selectTab(["home", "shop", "more", "extra"][pick % 4])
        case 7: return .setFacts(["unlocked": .bool(pick % 2 == 0)])
        case 8: return .start(flow: "unlock", params: [:])
        case 9: return .finish(output: "ok", params: [:])
        case 10: return .undo
        case 11: return .redo
        default: return .replace(route: route, params: params)
        }
    }

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
