extension Coordinator {
    /// The strings, screens and tab an operation names, for the checks that need no tree.
    struct StaticParts {
        var strings: [(text: String, what: String)] = []
        var screens: [ScreenRequest] = []
        var tab: String?
        var isEmptySetStack = false
        /// Params that are not a screen's (an event's, a flow's, an output's, facts), sized with the rest.
        var extraParams: [InputParams] = []

        init(_ op: Operation) {
            switch op {
            case .push(let route, let params), .replace(let route, let params), .present(let route, let params, _):
                strings = [(route, "route name")]
                screens = [ScreenRequest(route: route, params: params)]
            case .setStack(let requests):
                strings = requests.map { ($0.route, "route name") }
                screens = requests
                isEmptySetStack = requests.isEmpty
            case .popTo(let target):
                strings = [(target, "target")]
            case .open(let target):
                strings = [(target, "target")]
            case .selectTab(let tab):
                strings = [(tab, "tab name")]
                self.tab = tab
            case .send(let source, let event, let params, _):
                strings = [(event, "event name"), (source, "source id")]
                extraParams = [params]
            case .start(let flow, let params):
                strings = [(flow, "flow name")]
                extraParams = [params]
            case .finish(let output, let params):
                strings = [(output, "output name")]
                extraParams = [params]
            case .setFacts(let facts):
                strings = facts.keys.sorted().map { ($0, "fact name") }
                extraParams = [facts]
            default:
                break
            }
        }
    }

    /// Checks `ops` in the contract's order across all of them: sizes, then names, then params.
    /// With `indexed`, a failure's message starts with "op N: ".
    func checkStatically(_ ops: [Operation], indexed: Bool) throws(NavigationError) {
        let parts = ops.map(StaticParts.init)
        func label(_ index: Int) -> String { indexed ? "op \(index): " : "" }
        for (index, part) in parts.enumerated() {
            for item in part.strings {
                do { try graph.checkLength(item.text, item.what) } catch { throw error.prefixed(label(index)) }
            }
        }
        // The empty sets counted, not listed (most calls give no params: no array made).
        var paramSets: [InputParams] = []
        var emptySets = 0
        for part in parts {
            for screen in part.screens {
                if screen.params.isEmpty { emptySets += 1 } else { paramSets.append(screen.params) }
            }
            for params in part.extraParams {
                if params.isEmpty { emptySets += 1 } else { paramSets.append(params) }
            }
        }
        try graph.checkParamSizes(paramSets, emptySets: emptySets)
        for (index, part) in parts.enumerated() {
            do {
                for screen in part.screens { try graph.checkRoute(screen.route) }
                if let tab = part.tab { _ = try graph.tab(tab) }
            } catch {
                throw error.prefixed(label(index))
            }
        }
        for (index, part) in parts.enumerated() {
            do throws(NavigationError) {
                if part.isEmptySetStack {
                    throw NavigationError.invalidParams("SetStack needs at least one screen: the first becomes the stack's root")
                }
                for screen in part.screens where !screen.params.isEmpty || graph.requiresParams(screen.route) {
                    _ = try graph.checkParams(screen.params, for: graph.route(screen.route))
                }
            } catch {
                throw error.prefixed(label(index))
            }
        }
    }
}
