// `navctl export --redact` (docs/devtools.md, "Recordings"): every param value becomes a placeholder of the
// same type, so a recording can be handed on without the values people typed; facts and route files stay.

extension ParamValue {
    /// The placeholder of the value: a string of as many `x` as it has characters, `0`, `0.0` or `false`.
    public var placeholder: ParamValue {
        switch self {
        case .string(let text): .string(String(repeating: "x", count: text.count))
        case .int: .int(0)
        case .double: .double(0)
        case .bool: .bool(false)
        }
    }
}

extension Dictionary where Key == String, Value == ParamValue {
    /// Each value's placeholder.
    public var placeholders: [String: ParamValue] { mapValues(\.placeholder) }
}

extension NavigationState {
    /// The state with every screen's and flow instance's params replaced by placeholders, in the tree, the
    /// undo and redo lists and the kept states, and without the kept changes' requests and callers; facts
    /// are kept. Pending intents of guarded flows keep their requests (not redacted).
    public func redactingParams() -> NavigationState {
        var lists = RedactedLists()
        var redacted = self
        redacted.tree = tree.redactingParams()
        redacted.undo = lists.redacting(undo)
        redacted.redo = lists.redacting(redo)
        var steps = history.all
        let states = steps.map { step in
            step.after.map { after in
                var state = after.state
                state.tree = state.tree.redactingParams()
                return state
            }
        }
        for index in steps.indices {
            steps[index].record = nil
            steps[index].export = steps[index].export.map { lists.redacting($0) }
        }
        KeptState.share(states, into: &steps)  // redacted steps share their stacks' bottoms as the originals did
        redacted.history = BoundedStack(newestFirst: steps)
        if let base { redacted.base?.state.tree = base.state.tree.redactingParams() }
        redacted.baseExport = baseExport.map { lists.redacting($0) }
        redacted.listsMark = ListsMark()  // its trees are not redacted
        return redacted
    }
}

/// Undo and redo lists redacted cell by cell, each cell once however many steps share it, so that the lists
/// stay shared and redacting 1,000 steps with 100 undo entries each costs about 1,000 cells, not 100,000.
private struct RedactedLists {
    var cells: [ObjectIdentifier: StackCell<Tree>] = [:]
    var listedCells: [ObjectIdentifier: StackCell<ListedTree>] = [:]

    /// `export` with its lists redacted; a change's account of its lists needs nothing (the kept states it
    /// names are redacted with the steps).
    mutating func redacting(_ export: KeptForExport) -> KeptForExport {
        guard case .lists(let pair) = export.lists else { return export }
        var export = export
        export.lists = .lists(ListPair(undo: listed(pair.undo), redo: listed(pair.redo)))
        return export
    }

    /// A kept step's list redacted, cell by cell as the live lists are.
    private mutating func listed(_ stack: BoundedStack<ListedTree>) -> BoundedStack<ListedTree> {
        Self.redacting(stack, known: &listedCells) { .tree($0.tree.redactingParams()) }
    }

    mutating func redacting(_ stack: BoundedStack<Tree>) -> BoundedStack<Tree> {
        Self.redacting(stack, known: &cells) { $0.redactingParams() }
    }

    /// `stack` with each element redacted by `redact`, each cell once: a cell already redacted (in `known`) is
    /// shared again with everything below it.
    private static func redacting<Element>(
        _ stack: BoundedStack<Element>, known: inout [ObjectIdentifier: StackCell<Element>], _ redact: (Element) -> Element
    ) -> BoundedStack<Element> {
        var pending: [StackCell<Element>] = []
        var cell = stack.top
        var below: StackCell<Element>?
        while let current = cell {
            if let done = known[ObjectIdentifier(current)] { below = done; break }
            pending.append(current)
            cell = current.below
        }
        for current in pending.reversed() {
            let redacted = StackCell(redact(current.element), below: below)
            known[ObjectIdentifier(current)] = redacted
            below = redacted
        }
        return BoundedStack(top: below)
    }
}

extension Tree {
    /// The tree with every screen's and flow instance's params replaced by placeholders.
    func redactingParams() -> Tree {
        var tree = self
        for tab in tree.tabs.indices {
            for layer in tree.tabs[tab].layers.indices {
                for screen in tree.tabs[tab].layers[layer].screens.indices {
                    tree.tabs[tab].layers[layer].screens[screen].params = tree.tabs[tab].layers[layer].screens[screen].params.placeholders
                }
            }
        }
        tree.flows = tree.flows.mapValues { instance in
            var instance = instance
            instance.params = instance.params.placeholders
            return instance
        }
        return tree
    }
}

extension RouteGraph {
    /// An `Open` target with its param values replaced by placeholders of their declared types (`placeholderText`):
    /// the `{param}` segments of the declared link pattern it matches, and the values of a generic path's
    /// `;key=value` pairs. Literal segments, route and tab names and named states stay.
    public func redactedTarget(_ target: String) -> String {
        guard target.hasPrefix("/") else { return target }
        let segments = target.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for route in routes.values {
            guard let link = route.link, let pattern = LinkPattern.parse(link), pattern.count == segments.count else { continue }
            let matches = zip(pattern, segments).allSatisfy { part, segment in
                if case .literal(let text) = part { return text == segment }
                return true
            }
            guard matches else { continue }
            return "/" + zip(pattern, segments).map { part, segment in
                if case .param(let name) = part { return Self.placeholderText(segment, type: route.params[name]) }
                return String(segment)
            }.joined(separator: "/")
        }
        return "/" + segments.map { segment in
            let pieces = segment.split(separator: ";", omittingEmptySubsequences: false)
            guard pieces.count > 1 else { return String(segment) }
            let declared = routes[String(pieces[0])]?.params ?? [:]
            return ([String(pieces[0])] + pieces.dropFirst().map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let value = pair[pair.index(after: equals)...]
                return String(pair[...equals]) + Self.placeholderText(value, type: declared[String(pair[..<equals])])
            }).joined(separator: ";")
        }.joined(separator: "/")
    }

    /// A link segment's placeholder, of the param's declared type so that navd still reads the link (`0`,
    /// `0.0`, `false`; for a string, or an undeclared param, as many `x` as the text has characters).
    static func placeholderText(_ text: Substring, type: ParamType?) -> String {
        switch type {
        case .int: "0"
        case .double: "0.0"
        case .bool: "false"
        case .string, nil: String(repeating: "x", count: text.count)
        }
    }
}
