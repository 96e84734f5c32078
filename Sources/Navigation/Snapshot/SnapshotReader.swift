/// Decodes a version-7, -6, -5 or -4 snapshot (the format is in SnapshotWriter.swift). Every list is built once and every
/// stack, tab list and tree that the document shares is the same array again, so memory after a restart holds
/// what the document holds, not (tree size × steps). Trees are checked as in every version, each once, with
/// the label of its first use ("tree", "an undo/redo tree").
struct SnapshotReader {
    private let nextId: UInt64
    private var routes: [String] = []
    private var screens: [Screen] = []
    private(set) var cellElements: [Int] = []
    private(set) var cellLists: [Int] = []
    private var stacks = SnapshotStacks()
    /// Each stack entry and the number of its screens in `stacks`.
    private var frames: [(frame: StackFrame, stack: Int)] = []
    private var tabs: [(tab: TabStack, stacks: [Int])] = []
    private var flows: [FlowInstance] = []
    private(set) var treeEntries: [(isTabbed: Bool, selected: UInt64, tabs: Int, flows: Int)] = []
    private var trees: [Int: Tree] = [:]
    /// The texts the change records refer to (version 7).
    private var texts: [[UInt8]] = []
    /// What each list reference already became.
    private var stackByList: [Int: Int] = [:]
    private var layersByList: [Int: (layers: [StackFrame], stacks: [Int])] = [:]
    private var tabsByList: [Int: (tabs: [TabStack], stacks: [Int])] = [:]
    /// The cell each undo/redo list reference already became (SnapshotWriter+Export.swift).
    var treeCellsByList: [Int: StackCell<ListedTree>] = [:]
    /// Screens read from documents decoded before this one, by id (a restore's head and segments): an equal screen
    /// is that one again, so memory holds a screen the documents repeat once. nil: not shared.
    private var pool: [String: Screen]?

    private init(nextId: UInt64) { self.nextId = nextId }

    /// The state in the rest of `reader` (after the version, revision and next id, which are given).
    static func decode(
        _ reader: inout ByteReader, revision: UInt64, nextId: UInt64, keepsStates: Bool, keepsRecords: Bool,
        keepsExport: Bool, sharesTexts: Bool, pool: inout [String: Screen]?
    ) throws(SnapshotError) -> NavigationState {
        var tables = SnapshotReader(nextId: nextId)
        swap(&tables.pool, &pool)
        defer { swap(&tables.pool, &pool) }
        try tables.readTables(&reader)
        if sharesTexts { tables.texts = try reader.texts() }
        let texts = tables.texts
        var newer = HistoryEntry(revision: revision, cause: "", time: 0)
        var state = try NavigationState.readState(
            &reader, revision: revision, nextId: nextId, keepsStates: keepsStates, keepsRecords: keepsRecords,
            export: { (reader) throws(SnapshotError) in keepsExport ? try tables.export(&reader) : nil },
            tree: { (reader, label) throws(SnapshotError) in
                try tables.tree(try reader.index(below: tables.treeEntries.count, of: "tree"), label: label)
            },
            record: { reader throws(SnapshotError) in
                sharesTexts ? try reader.changeRecord(texts: texts) : try reader.changeRecord()
            },
            entry: { reader throws(SnapshotError) in
                sharesTexts
                    ? try reader.entry(texts: texts, newer: &newer)
                    : try reader.historyEntry()
            })
        if keepsExport {
            let baseExport = try tables.export(&reader)
            // The base's Export part belongs with the base, and SnapshotWriter writes it only with one: without
            // a base it is dropped, so that a decoded state encodes to itself (a crafted file, found by fuzzing).
            state.baseExport = state.base == nil ? nil : baseExport
            state.graphGeneration = try reader.varint()
        }
        guard reader.isAtEnd else { throw reader.corrupt("unexpected bytes after the snapshot") }
        return state
    }

    /// Reads the tables in their order; lists are built as stacks and tabs name them.
    private mutating func readTables(_ reader: inout ByteReader) throws(SnapshotError) {
        for _ in 0..<(try reader.count()) { routes.append(try reader.string()) }
        for _ in 0..<(try reader.count()) {
            let id = try reader.string()
            let route = routes[try reader.index(below: routes.count, of: "route")]
            let screen = Screen(id: id, route: route, params: try reader.params())
            if pool != nil, let known = pool?[id], known == screen {
                screens.append(known)
            } else {
                pool?[id] = screen
                screens.append(screen)
            }
        }
        let cellCount = try reader.count()
        for cell in 0..<cellCount {
            cellElements.append(Int(clamping: try reader.varint()))
            cellLists.append(try reader.index(below: cell + 1, of: "list"))  // only cells before this one
        }
        for _ in 0..<(try reader.count()) {
            let code = try reader.byte()
            guard let style = Presentation(code: code) else { throw reader.corrupt("unknown style \(code)") }
            let stack = try stack(try reader.index(below: cellCount + 1, of: "list"))
            frames.append((StackFrame(style: style, screens: stacks.screens[stack]), stack))
        }
        for _ in 0..<(try reader.count()) {
            let name = try reader.string(), id = try reader.string()
            let (layers, used) = try layers(try reader.index(below: cellCount + 1, of: "list"))
            tabs.append((TabStack(name: name, id: id, layers: layers), used))
        }
        for _ in 0..<(try reader.count()) { flows.append(try reader.flowInstance()) }
        for _ in 0..<(try reader.count()) {
            treeEntries.append((
                try reader.bool(), try reader.varint(), try reader.index(below: cellCount + 1, of: "list"),
                try reader.index(below: cellCount + 1, of: "list")))
        }
    }

    /// The elements of list `reference`, first to last, each checked to be below `limit`.
    private func elements(of reference: Int, below limit: Int, what: String) throws(SnapshotError) -> [Int] {
        var result: [Int] = []
        var next = reference
        while next > 0 {  // each cell's list is before it: the walk ends
            let element = cellElements[next - 1]
            guard element < limit else { throw .corrupt("\(what) \(element) does not exist (there are \(limit))") }
            result.append(element)
            next = cellLists[next - 1]
        }
        result.reverse()
        return result
    }

    /// The number in `stacks` of the stack whose screens are list `reference`, checked once.
    private mutating func stack(_ reference: Int) throws(SnapshotError) -> Int {
        if let known = stackByList[reference] { return known }
        let stack = try elements(of: reference, below: screens.count, what: "screen").map { screens[$0] }
        if let problem = stacks.add(stack) { throw .corrupt("\(problem) in the stack of list \(reference)") }
        let number = stacks.screens.count - 1
        stackByList[reference] = number
        return number
    }

    /// The stacks that list `reference` names, and their numbers in `stacks`.
    private mutating func layers(_ reference: Int) throws(SnapshotError) -> (layers: [StackFrame], stacks: [Int]) {
        try list(reference, cache: \.layersByList, below: frames.count, what: "stack") { [frames] numbers in
            (numbers.map { frames[$0].frame }, numbers.map { frames[$0].stack })
        }
    }

    /// Tree `number`, built and checked at its first use.
    mutating func tree(_ number: Int, label: String) throws(SnapshotError) -> Tree {
        if let known = trees[number] { return known }
        let entry = treeEntries[number]
        let (treeTabs, used) = try tabList(entry.tabs)
        guard entry.selected < UInt64(max(treeTabs.count, 1)) else { throw .corrupt("\(label): selected tab \(entry.selected) does not exist") }
        var tree = Tree(isTabbed: entry.isTabbed, tabs: treeTabs, selected: Int(entry.selected))
        for flow in try elements(of: entry.flows, below: flows.count, what: "flow instance") {
            try SnapshotStacks.add(flows[flow], to: &tree, nextId: nextId, label: label)
        }
        try stacks.check(tree, stacks: used, nextId: nextId, label: label)
        trees[number] = tree
        return tree
    }

    /// The tabs that list `reference` names, and the numbers of the stacks they hold, in order.
    private mutating func tabList(_ reference: Int) throws(SnapshotError) -> (tabs: [TabStack], stacks: [Int]) {
        try list(reference, cache: \.tabsByList, below: tabs.count, what: "tab") { [tabs] numbers in
            (numbers.map { tabs[$0].tab }, numbers.flatMap { tabs[$0].stacks })
        }
    }

    /// What list `reference` became: at its first use, `make` of its elements (each checked to be below
    /// `limit`), kept in `cache` for the next.
    private mutating func list<Value>(
        _ reference: Int, cache: WritableKeyPath<SnapshotReader, [Int: Value]>, below limit: Int, what: String,
        _ make: ([Int]) -> Value
    ) throws(SnapshotError) -> Value {
        if let known = self[keyPath: cache][reference] { return known }
        let value = make(try elements(of: reference, below: limit, what: what))
        self[keyPath: cache][reference] = value
        return value
    }
}
