import Navigation

/// Random route files and calls over one fixed set of names, picked from integer codes so that a
/// failing case replays from its numbers: the model's property tests and the reliability suite's
/// crash-and-edit runs draw from the same generator.
public enum RandomRouteGraphs {
    /// Picks from a code, a few bits at a time.
    public struct Picker {
        var state: UInt64
        public init(_ code: Int) { state = UInt64(code) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D }
        public mutating func pick(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(count))
        }
        public mutating func chance(_ percent: Int) -> Bool { pick(100) < percent }
    }

    /// A random route file over a fixed set of names: routes (picked by `routesCode`) come and go and change
    /// params, presentations and `requires`; tabs come and go (or there are none), facts change type, and the
    /// flow and the guard come and go (picked by `shapeCode`).
    public static func randomYAML(routesCode: Int, shapeCode: Int) -> String {
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

    /// The route names the generator's files and calls use.
    public static let routes = ["start", "catalog", "settings", "item", "detail", "editor", "help", "secret", "pin"]

    /// The operation a random code stands for.
    public static func operation(_ code: Int) -> Navigation.Operation {
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
}
