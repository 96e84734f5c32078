/// The distinct stacks of a snapshot while it is decoded, with what each needs checked only once.
///
/// Every tree that names a stack gets the same array, so trees that shared a buffer share it again.
/// A tree is checked like `Tree.structuralProblem()`, but each stack's own screens are checked once,
/// not once per tree that holds it. Used by every snapshot version.
struct SnapshotStacks {
    private(set) var screens: [[Screen]] = []
    private var ids: [Set<String>] = []
    private var highestIds: [UInt64?] = []

    init() {}

    /// Reads the stack table of a version-2 or version-3 document.
    init(reading reader: inout ByteReader) throws(SnapshotError) {
        let count = try reader.count()
        for stack in 0..<count {
            let screenCount = try reader.count()
            guard screenCount > 0 else { throw reader.corrupt("stack \(stack) is empty") }
            var stackScreens: [Screen] = []
            stackScreens.reserveCapacity(screenCount)
            for _ in 0..<screenCount {
                stackScreens.append(Screen(id: try reader.string(), route: try reader.string(), params: try reader.params()))
            }
            if let problem = add(stackScreens) { throw reader.corrupt("\(problem) in stack \(stack)") }
        }
    }

    /// Adds `stack` as the next stack (number `screens.count - 1`) and returns nil, or says what is wrong with
    /// its own screens (it is empty, or an id is empty or used twice) and adds nothing.
    mutating func add(_ stack: [Screen]) -> String? {
        guard !stack.isEmpty else { return "a stack is empty" }
        var stackIds: Set<String> = []
        stackIds.reserveCapacity(stack.count)
        var highest: UInt64?
        for screen in stack {
            guard !screen.id.isEmpty, stackIds.insert(screen.id).inserted else { return "screen id '\(screen.id)' is empty or used twice" }
            if let number = Tree.idNumber(screen.id) { highest = max(highest ?? 0, number) }
        }
        screens.append(stack)
        ids.append(stackIds)
        highestIds.append(highest)
        return nil
    }

    /// Reads one tree of a version-2 or version-3 document and checks it; `label` starts its error messages
    /// ("tree", "an undo/redo tree").
    mutating func readTree(from reader: inout ByteReader, nextId: UInt64, label: String, flows hasFlows: Bool) throws(SnapshotError) -> Tree {
        let isTabbed = try reader.bool()
        let selected = try reader.varint()
        var tabs: [TabStack] = []
        var used: [Int] = []
        for _ in 0..<(try reader.count()) {
            let name = try reader.string(), id = try reader.string()
            var layers: [StackFrame] = []
            for _ in 0..<(try reader.count()) {
                let code = try reader.byte()
                guard let style = Presentation(code: code) else { throw reader.corrupt("unknown style \(code)") }
                let index = try reader.index(below: screens.count, of: "stack")
                used.append(index)
                layers.append(StackFrame(style: style, screens: screens[index]))
            }
            tabs.append(TabStack(name: name, id: id, layers: layers))
        }
        guard selected < UInt64(max(tabs.count, 1)) else { throw .corrupt("\(label): selected tab \(selected) does not exist") }
        var tree = Tree(isTabbed: isTabbed, tabs: tabs, selected: Int(selected))
        if hasFlows {
            for _ in 0..<(try reader.count()) { try Self.add(try reader.flowInstance(), to: &tree, nextId: nextId, label: label) }
        }
        try check(tree, stacks: used, nextId: nextId, label: label)
        return tree
    }

    /// Adds a decoded flow instance to `tree`, refusing one whose id is not an issued id or whose first screen
    /// already starts another.
    static func add(_ instance: FlowInstance, to tree: inout Tree, nextId: UInt64, label: String) throws(SnapshotError) {
        guard let number = Tree.idNumber(instance.id), number < nextId, tree.flows[instance.firstScreen] == nil else {
            throw .corrupt("\(label): flow instance '\(instance.id)' has a bad or reused id")
        }
        tree.flows[instance.firstScreen] = instance
    }

    /// Checks a decoded tree whose layers hold the stacks numbered `used`, in order.
    func check(_ tree: Tree, stacks used: [Int], nextId: UInt64, label: String) throws(SnapshotError) {
        if let problem = tree.shapeProblem() ?? idProblem(of: tree, stacks: used, nextId: nextId) {
            throw .corrupt("\(label): \(problem)")
        }
    }

    /// Ids used twice across the tree's tabs and stacks, or ids not below `nextId`.
    private func idProblem(of tree: Tree, stacks used: [Int], nextId: UInt64) -> String? {
        guard let largest = used.max(by: { screens[$0].count < screens[$1].count }) else { return nil }
        var seen: Set<String> = []
        var highest = highestIds[largest]
        func note(_ id: String) -> String? {
            guard seen.insert(id).inserted, !ids[largest].contains(id) else { return "screen id '\(id)' is empty or used twice" }
            if let number = Tree.idNumber(id) { highest = max(highest ?? 0, number) }
            return nil
        }
        if tree.isTabbed {
            for tab in tree.tabs { if let problem = note(tab.id) { return problem } }
        }
        var skippedLargest = false
        for index in used {
            if index == largest && !skippedLargest { skippedLargest = true; continue }
            for screen in screens[index] { if let problem = note(screen.id) { return problem } }
        }
        if let highest, highest >= nextId { return "id '#\(highest)' is not below the next id \(nextId): ids would be reused" }
        return nil
    }
}

extension Tree {
    /// N for an id of the form "#N".
    static func idNumber(_ id: String) -> UInt64? {
        guard id.hasPrefix("#") else { return nil }
        return UInt64(id.dropFirst())
    }

    /// `structuralProblem()` without the per-screen id checks (which `SnapshotStacks` does per stack).
    func shapeProblem() -> String? {
        guard !tabs.isEmpty else { return "no tab or stack" }
        guard tabs.indices.contains(selected) else { return "selected tab \(selected) does not exist" }
        if !isTabbed && tabs.count != 1 { return "an untabbed tree holds \(tabs.count) stacks" }
        for tab in tabs {
            if isTabbed && (tab.name.isEmpty || tab.id.isEmpty) { return "a tab without name or id" }
            guard !tab.layers.isEmpty else { return "tab '\(tab.name)' has no stack" }
            for (index, frame) in tab.layers.enumerated() where (index == 0) != (frame.style == .root) || frame.style == .push {
                return "stack \(index) of tab '\(tab.name)' has style '\(frame.style.rawValue)'"
            }
        }
        return nil
    }
}
