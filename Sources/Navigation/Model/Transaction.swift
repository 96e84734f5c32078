/// The working copy of one change: what its ops, actions and handlers may alter, and what they did.
///
/// A change runs on a transaction and is committed only when everything succeeded; a failure drops it.
struct Transaction {
    var tree: Tree
    var ids: IdCounter
    var facts: [String: ParamValue]
    /// Ops, actions, on-output actions and resumed ops so far (counted against `maxApplyOps`).
    var steps = 0
    /// Set when an op other than set-facts ran: only then is the change an undo step.
    var touchedTree = false
    /// Set when screens may have left the tree (anything but a push, a present or a tab switch): only then
    /// can a flow instance have been abandoned.
    var removedScreens = false
    /// The first screens of the flow instances the change started.
    var startedFlows: [String] = []
    /// Instances dropped although their screens stay (their flow left the graph), announced as abandoned.
    var droppedFlows: [FlowInstance] = []
    /// Flows finished so far, in order.
    var finished: [FlowEnd] = []
    /// A guard redirected the request (or a resumed one).
    var redirected = false
    /// A kept request ran when its guard flow finished.
    var resumed = false
    /// The id of the screen Push, Replace or Present made (or that a redirect put on top).
    var newScreenID: String?
    /// The id of the flow Start started (or that a redirect started).
    var newFlowID: String?
    /// Sentences for the log.
    var notes: [String] = []
    /// The route and fact of a guard violation being thrown as `guardFailed`, for the request to redirect.
    var violation: (route: String, fact: String)?
    /// The dry run's trace; nil (and never built) outside Resolve.
    var trace: [String]?

    /// Borrowed: an initializer's parameters are owned, and the whole state was copied (and released) to pass it.
    init(_ state: borrowing NavigationState, tracing: Bool = false) {
        tree = state.tree
        ids = state.ids
        facts = state.facts
        trace = tracing ? [] : nil
    }

    /// Adds a trace line when tracing; the text is built only then.
    mutating func log(_ line: @autoclosure () -> String) {
        if trace != nil { trace!.append(line()) }
    }
}

/// What a handler reads its references from, bound when it starts.
struct HandlerContext {
    /// The event's params (`$event.`).
    var event: InputParams
    /// The event's name, for messages.
    var eventName: String
    /// The source screen's id and params (`$screen.`).
    var sourceID: String
    var screen: [String: ParamValue]
    /// The innermost flow enclosing the source when the handler started (its first screen), for `finish`
    /// and `$flow.`.
    var flowScreen: String?
    var flowParams: [String: ParamValue]?
    /// The finishing flow's output params (`$output.`), inside on-output only.
    var output: [String: ParamValue]?
}

extension ParamValue {
    /// The value as a caller would send it.
    var input: InputValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        }
    }
}

extension Tree {
    /// The position of screen `id` on the path (the selected tab's stacks), if it is there.
    func position(of id: String) -> (layer: Int, index: Int)? {
        let layers = current.layers
        for layer in layers.indices.reversed() {
            if let index = layers[layer].screens.lastIndex(where: { $0.id == id }) { return (layer, index) }
        }
        return nil
    }

    /// The position of the top screen.
    var topPosition: (layer: Int, index: Int) {
        (current.layers.count - 1, current.layers[current.layers.count - 1].screens.count - 1)
    }

    /// The flow instances enclosing the screen at `position` of the path, innermost first.
    func enclosingFlows(at position: (layer: Int, index: Int)) -> [FlowInstance] {
        guard !flows.isEmpty else { return [] }
        var result: [FlowInstance] = []
        let layers = current.layers
        for layer in (0...position.layer).reversed() {
            let screens = layers[layer].screens
            let start = layer == position.layer ? position.index : screens.count - 1
            for index in (0...start).reversed() {
                if let instance = flows[screens[index].id] { result.append(instance) }
            }
        }
        return result
    }

    /// The innermost flow instance enclosing the screen at `position` of the path (a walk down to the first one).
    func innermostFlow(at position: (layer: Int, index: Int)) -> FlowInstance? {
        guard !flows.isEmpty else { return nil }
        let layers = current.layers
        for layer in (0...position.layer).reversed() {
            let screens = layers[layer].screens
            let start = layer == position.layer ? position.index : screens.count - 1
            for index in (0...start).reversed() {
                if let instance = flows[screens[index].id] { return instance }
            }
        }
        return nil
    }

    /// Drops the instances whose first screen is no longer on the tree, and returns those that `old` held,
    /// outer before inner. A screen keeps its position for its whole life, so the screens `old` held that are
    /// gone are those past the first position where the two trees differ; unchanged stacks share storage
    /// and compare in O(1). Instances the change started (their first screens in `started`) are looked up.
    mutating func pruneFlows(comparedTo old: Tree, started: [String] = []) -> [FlowInstance] {
        var gone: [FlowInstance] = []
        if !old.flows.isEmpty {
            for oldTab in old.tabs {
                let newTab = tabs.first { $0.name == oldTab.name }
                if let newTab, newTab.layers == oldTab.layers { continue }
                var diverged = false
                for (layer, frame) in oldTab.layers.enumerated() {
                    let newScreens = newTab.map { layer < $0.layers.count ? $0.layers[layer].screens : [] } ?? []
                    for (index, screen) in frame.screens.enumerated() {
                        if !diverged && index < newScreens.count && newScreens[index].id == screen.id { continue }
                        diverged = true
                        if let instance = old.flows[screen.id] {
                            gone.append(instance)
                            flows[screen.id] = nil
                        }
                    }
                    if !diverged && newScreens.count < frame.screens.count { diverged = true }
                }
            }
        }
        for screen in started where flows[screen] != nil {
            let onTree = tabs.contains { tab in tab.layers.contains { $0.screens.contains { $0.id == screen } } }
            if !onTree { flows[screen] = nil }
        }
        return gone
    }

    /// Every flow instance, in the pre-order of their first screens.
    var orderedFlows: [FlowInstance] {
        guard !flows.isEmpty else { return [] }
        var result: [FlowInstance] = []
        for tab in tabs {
            for frame in tab.layers {
                for screen in frame.screens { if let instance = flows[screen.id] { result.append(instance) } }
            }
        }
        return result
    }
}
