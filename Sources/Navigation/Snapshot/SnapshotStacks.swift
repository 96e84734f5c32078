/// The distinct stacks of a snapshot while it is decoded, with what each needs checked only once.
///
/// Every tree that names a stack gets the same array, so trees that shared a buffer share it again.
/// A tree is checked like `Tree.structuralProblem()`, but each stack's own screens are checked once,
/// not once per tree that holds it.
struct SnapshotStacks {
    private(set) var screens: [[Screen]] = []
    private var ids: [Set<String>] = []
    private var highestIds: [UInt64?] = []

    init() {}

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
