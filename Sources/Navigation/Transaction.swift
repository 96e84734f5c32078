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
    /// Flows finished so far, in order.
    var finished: [FlowEnd] = []
    /// A guard redirected the request (or a resumed one).
    var redirected = false
    /// A kept request ran when its guard flow finished.
    var resumed = false
    /// The event's handler was `none`.
    var ignored = false
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

    init(_ state: NavigationState, tracing: Bool = false) {
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

    /// Drops the instances whose first screen left the tree. Only tabs that hold an instance and differ from
    /// `old` (unchanged stacks share storage, so the comparison is cheap) are walked.
    mutating func pruneFlows(comparedTo old: Tree? = nil) {
        guard !flows.isEmpty else { return }
        let tabsWithFlows = Set(flows.values.map(\.tab))
        var present: Set<String> = []
        var walked: Set<String> = []
        for (index, tab) in tabs.enumerated() where tabsWithFlows.contains(isTabbed ? tab.name : "") {
            if let old, old.tabs.indices.contains(index), old.tabs[index].name == tab.name, old.tabs[index].layers == tab.layers {
                continue
            }
            walked.insert(isTabbed ? tab.name : "")
            for frame in tab.layers {
                for screen in frame.screens where flows[screen.id] != nil { present.insert(screen.id) }
            }
        }
        let tabNames = Set(tabs.map { isTabbed ? $0.name : "" })
        for (screen, instance) in flows where (walked.contains(instance.tab) && !present.contains(screen)) || !tabNames.contains(instance.tab) {
            flows[screen] = nil
        }
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
