/// The stacks of a version-2 snapshot while it is decoded, with what each needs checked only once.
///
/// Every tree that names a stack gets the same array, so trees that shared a buffer share it again.
/// A tree is checked like `Tree.structuralProblem()`, but each stack's own screens are checked once,
/// not once per tree that holds it.
struct SnapshotStacks {
    private var screens: [[Screen]] = []
    private var ids: [Set<String>] = []
    private var highestIds: [UInt64?] = []

    init(reading reader: inout ByteReader) throws(SnapshotError) {
        let count = try reader.count()
        for stack in 0..<count {
            let screenCount = try reader.count()
            guard screenCount > 0 else { throw reader.corrupt("stack \(stack) is empty") }
            var stackScreens: [Screen] = []
            stackScreens.reserveCapacity(screenCount)
            var stackIds: Set<String> = []
            stackIds.reserveCapacity(screenCount)
            var highest: UInt64?
            for _ in 0..<screenCount {
                let screen = Screen(id: try reader.string(), route: try reader.string(), params: try reader.params())
                guard !screen.id.isEmpty, stackIds.insert(screen.id).inserted else {
                    throw reader.corrupt("screen id '\(screen.id)' is empty or used twice in stack \(stack)")
                }
                if let number = Tree.idNumber(screen.id) { highest = max(highest ?? 0, number) }
                stackScreens.append(screen)
            }
            screens.append(stackScreens)
            ids.append(stackIds)
            highestIds.append(highest)
        }
    }

    /// Reads one tree and checks it; `label` starts its error messages ("tree", "an undo/redo tree").
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
            for _ in 0..<(try reader.count()) {
                let instance = try reader.flowInstance()
                guard let number = Tree.idNumber(instance.id), number < nextId, tree.flows[instance.firstScreen] == nil else {
                    throw .corrupt("\(label): flow instance '\(instance.id)' has a bad or reused id")
                }
                tree.flows[instance.firstScreen] = instance
            }
        }
        if let problem = tree.shapeProblem() ?? idProblem(of: tree, stacks: used, nextId: nextId) {
            throw .corrupt("\(label): \(problem)")
        }
        return tree
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
