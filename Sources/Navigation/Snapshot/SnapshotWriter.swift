// Snapshot format version 7, binary (primitives as in ByteWriter, values as in ByteCoding+Values.swift and
// ByteCoding+Flows.swift). Whatever the trees hold is stored once, in tables, and referred to by index:
//
//   magic "NVDS" (4 bytes), varint version (7), varint revision, varint next id, then the tables, each a varint
//   count and its entries:
//   routes   string (each route name a screen names)
//   screens  string id, varint route, params
//   cells    varint element, varint list (the cells before it: a list reference, below this cell's own)
//   stacks   style byte (0 root, 1 push, 2 sheet, 3 cover), varint list of screens
//   tabs     string name, string id, varint list of stacks
//   flows    a flow instance
//   trees    bool tabbed, varint selected, varint list of tabs, varint list of flows
//   texts    (version 7) varint length + bytes (each text a change record refers to: SnapshotWriter+Records.swift)
//   then varint current tree, varint undo count + trees (newest first), varint redo count + trees (newest
//   first), (version 5) the facts (params), varint history count, then per entry (newest first): varint
//   revision, string cause, zigzag time (version 7: zigzag the newer entry's revision (the current revision for
//   the newest) less this one's, varint cause text, zigzag the newer entry's time (0 for the newest) less this
//   one's), and (version 5) the state right after it: byte 0 (none), 1 (varint
//   tree; the facts of the state before it in the document: the current facts, then the newer entry's) or 2
//   (varint tree, then the facts that differ from those: params of the changed ones, varint count + strings of
//   the removed ones), then (version 6) bool and, if true, the change's record (version 6: as in the journal,
//   Model/ChangeRecord.swift; version 7: as references into the texts table); then (version 7) what Export
//   keeps of the change (SnapshotWriter+Export.swift); then (version 5) the base: bool, and if true varint
//   revision and a state as above; (version 7) what Export keeps of the base's change, then varint graph
//   generation; (version 4) the facts last.
//
// A list reference is 0 for the empty list, else 1 + the index of the cell holding its last element; a cell
// holds one element (an index into the table the list is of) and the list before it. So lists that differ
// only at their ends share their cells: a push or a pop on a stack of 120 screens adds one cell, not 120
// screens. Screens are told apart by id (and compared whole), the rest by value, so the document is a function
// of the state alone, and each screen, list cell, stack, tab, flow instance and tree that several undo, redo
// or history steps hold is written once: the document grows with what the steps changed, never with
// (tree size × steps) (`docs/durability.md#bounded-saved-state`). The reader shares again in memory what is shared here.
//
// Version 6 is version 7 with each record's texts written out in it and without what Export keeps; version 5,
// version 6 without the change records; version 4, which 0.1.0 wrote, version 5 without the kept
// states; all three are still read (a change of version 5 or 4 has no record). Versions 2 and 3,
// from development builds before 0.1.0, are no longer read.

/// Encodes a state as a version-7 snapshot (see the notes above).
struct SnapshotWriter {
    private var routes = Table<String>()
    private var screens = ByteWriter(capacity: 4096)
    private var screenNumbers = IdTable<Screen>()
    private var cells = KeyedTable<WordPairKey>()
    private var stacks = KeyedTable<WordPairKey>()
    private var tabs = TabTable()
    private var flows = ByteWriter(capacity: 256)
    private var flowNumbers = IdTable<FlowInstance>()
    private var trees = KeyedTable<WordTripleKey>()
    /// The texts of the change records (SnapshotWriter+Records.swift).
    var texts = Table<[UInt8]>()
    /// The texts numbered last (SnapshotWriter+Records.swift).
    var recentTexts = RecentTexts()
    /// Lists already written for an array buffer: a buffer the state shares between trees is walked once. The
    /// pointers are only compared while the state being encoded keeps every buffer alive.
    private var listByBuffer = WordMap<WordKey>()
    /// The last stack walked and the list reference after each of its screens: the next stack walked is most
    /// often the same stack one step earlier (a push or pop apart), so their common bottom is not looked up again.
    private var lastStack: (screens: [Screen], references: [Int]) = ([], [])
    /// The list reference of each undo/redo list cell already written (SnapshotWriter+Export.swift).
    var treeCells = WordMap<WordKey>()
    /// Lists already written for a kept stack's cell (SnapshotWriter+Kept.swift), alive while the state is.
    var listByCell = WordMap<WordKey>()

    struct Frame {
        var style: UInt8; var list: Int
        var key: WordPairKey { WordPairKey(a: UInt64(style), b: UInt64(list)) }
    }
    struct Tab { var name: String; var id: String; var list: Int }
    struct TreeEntry {
        var isTabbed: Bool; var selected: Int; var tabs: Int; var flows: Int
        /// List references are far below 2^63: the top bit of the last word holds `isTabbed`.
        var key: WordTripleKey {
            WordTripleKey(a: UInt64(bitPattern: Int64(selected)), b: UInt64(tabs), c: UInt64(flows) | (isTabbed ? 1 << 63 : 0))
        }
    }

    /// The whole document for `state`, with at most the `historyLimit` newest history steps (and the base only
    /// when every step is written).
    static func document(_ state: NavigationState, historyLimit: Int = .max) -> [UInt8] {
        let stepCount = min(max(0, historyLimit), state.history.count)
        var writer = SnapshotWriter()
        writer.reserve(steps: stepCount + state.undo.count + state.redo.count)
        var body = ByteWriter(capacity: 256)
        body.count(writer.tree(state.tree))
        let undo = state.undo.all, redo = state.redo.all
        body.count(undo.count)
        for tree in undo { body.count(writer.tree(tree)) }
        body.count(redo.count)
        for tree in redo { body.count(writer.tree(tree)) }
        body.params(state.facts)
        body.count(stepCount)
        var newerFacts = state.facts
        let base = stepCount < state.history.count ? nil : state.base.map { (revision: $0.revision, state: KeptState($0.state)) }  // alive until written
        var newer = HistoryEntry(revision: state.revision, cause: "", time: 0)
        // The lists right after each step, made again (Model/KeptLists.swift), and the base's.
        let stepLists = stepCount > 0 ? state.listsOfSteps(newest: stepCount) : []
        // Walked in place, each field read from its cell, the cells passed unretained (the state keeps them alive):
        // copying up to 1,001 kept changes into an array was a third of the encoding, and copying each out of its
        // cell retained and released all of its fields.
        var next = state.history.top.map(Unmanaged.passUnretained)
        for index in 0..<stepCount {
            guard let cell = next else { break }
            cell._withUnsafeGuaranteedRef { step in
                writer.entry(step.element.entry, newer: &newer, to: &body)
                writer.kept(step.element.after, newerFacts: &newerFacts, to: &body)
                body.bool(step.element.record != nil)
                if let record = step.element.record { writer.changeRecord(record, to: &body) }
                writer.export(step.element.export, lists: stepLists[index], to: &body)
            }
            next = cell.below()
        }
        body.bool(base != nil)
        if let base {
            body.varint(base.revision)
            writer.kept(base.state, newerFacts: &newerFacts, to: &body)
        }
        writer.export(base == nil ? nil : state.baseExport, lists: state.baseExport?.lists.pair, to: &body)  // with the base it belongs to
        body.varint(state.graphGeneration)
        let tables = [
            (writer.routes.index.count, writer.routes.bytes), (writer.screenNumbers.count, writer.screens),
            (writer.cells.count, writer.cells.bytes), (writer.stacks.count, writer.stacks.bytes),
            (writer.tabs.count, writer.tabs.bytes), (writer.flowNumbers.count, writer.flows),
            (writer.trees.count, writer.trees.bytes), (writer.texts.index.count, writer.texts.bytes),
        ]
        var document = ByteWriter(capacity: 64 + body.bytes.count + tables.reduce(0) { $0 + $1.1.bytes.count })
        document.raw(NavigationState.snapshotMagic)
        document.varint(UInt64(NavigationState.snapshotVersion))
        document.varint(state.revision)
        document.varint(state.ids.next)
        for (count, bytes) in tables {
            document.count(count)
            document.raw(bytes.bytes)
        }
        document.raw(body.bytes)
        return document.bytes
    }

    /// Sizes the tables for about `steps` kept steps and undo/redo trees (a push or pop adds about one entry to
    /// each), so that they are not grown and rehashed again and again while the document is written.
    private mutating func reserve(steps: Int) {
        cells.index.reserveCapacity(2 * steps)
        stacks.index.reserveCapacity(steps)
        tabs.reserveCapacity(steps)
        trees.index.reserveCapacity(steps)
        treeCells.reserveCapacity(steps)
        listByCell.reserveCapacity(steps)
        listByBuffer.reserveCapacity(2 * steps)
    }

    /// A kept state (see the notes above): its facts as what differs from `newerFacts`, the facts of the state
    /// written before it, so that a step costs the facts its change set, not all of them.
    private mutating func kept(_ kept: KeptState?, newerFacts: inout [String: ParamValue], to body: inout ByteWriter) {
        guard let kept else { body.byte(0); return }
        let same = newerFacts == kept.facts
        body.byte(same ? 1 : 2)
        body.count(keptTree(kept))
        if !same {
            body.params(kept.facts.filter { newerFacts[$0.key] != $0.value })
            let removed = newerFacts.keys.filter { kept.facts[$0] == nil }.sorted()
            body.count(removed.count)
            for name in removed { body.string(name) }
        }
        newerFacts = kept.facts
    }

    /// The tree's number.
    mutating func tree(_ tree: Tree) -> Int {
        treeNumber(tree, tabs: list(tree.tabs) { writer, tab in writer.tab(tab) })
    }

    /// The number of the tree whose tabs are list `tabList` and whose selection and flows are `tree`'s.
    mutating func treeNumber(_ tree: Tree, tabs tabList: Int) -> Int {
        var flowList = 0
        if !tree.flows.isEmpty {
            // Numbered in id order (the dictionary's order differs between processes, and the document is a function
            // of the state alone), listed in table order, so that trees whose flows differ by the newest instances
            // share the older cells.
            var numbers: [Int] = []
            for (_, instance) in tree.flows.sorted(by: { $0.key < $1.key }) { numbers.append(flow(instance)) }
            for number in numbers.sorted() { flowList = cell(number, after: flowList) }
        }
        let entry = TreeEntry(isTabbed: tree.isTabbed, selected: tree.selected, tabs: tabList, flows: flowList)
        return trees.number(entry.key) { bytes in
            bytes.bool(entry.isTabbed)
            bytes.varint(UInt64(bitPattern: Int64(entry.selected)))  // a negative index reads back as out of range
            bytes.count(entry.tabs)
            bytes.count(entry.flows)
        }
    }

    private mutating func tab(_ tab: TabStack) -> Int {
        tabNumber(Tab(name: tab.name, id: tab.id, list: list(tab.layers) { writer, frame in writer.stack(frame) }))
    }

    mutating func tabNumber(_ entry: Tab) -> Int {
        tabs.number(entry)
    }

    private mutating func stack(_ frame: StackFrame) -> Int {
        stackNumber(Frame(style: frame.style.code, list: screenList(frame.screens)))
    }

    mutating func stackNumber(_ entry: Frame) -> Int {
        stacks.number(entry.key) { bytes in
            bytes.byte(entry.style)
            bytes.count(entry.list)
        }
    }

    /// The list reference of `elements`, numbering each with `number`; an array buffer seen before is not walked.
    mutating func list<Element>(_ elements: [Element], _ number: (inout SnapshotWriter, Element) -> Int) -> Int {
        let buffer = elements.bufferAddress
        if let buffer, let known = listByBuffer[.address(buffer)] { return known }
        var reference = 0
        // By index: `for element in elements` copied each element out (a tab: its name, id and stacks retained and
        // released), where the subscript lends it to `number`.
        for index in elements.indices {
            let numbered = number(&self, elements[index])
            reference = cell(numbered, after: reference)
        }
        if let buffer { listByBuffer.set(.address(buffer), reference) }
        return reference
    }

    /// `list(screens)` for a stack, passing over the bottom it shares with the last stack walked.
    private mutating func screenList(_ screens: [Screen]) -> Int {
        let buffer = screens.bufferAddress
        if let buffer, let known = listByBuffer[.address(buffer)] { return known }
        var references: [Int] = []
        references.reserveCapacity(screens.count)
        var reference = 0
        var sharing = true
        for (index, screen) in screens.enumerated() {
            // Equal bottoms have equal references: the tables number screens and cells by value.
            sharing = sharing && index < lastStack.screens.count && lastStack.screens[index] == screen
            if sharing {
                reference = lastStack.references[index]
            } else {
                let number = self.screen(screen)
                reference = cell(number, after: reference)
            }
            references.append(reference)
        }
        lastStack = (screens, references)
        if let buffer { listByBuffer.set(.address(buffer), reference) }
        return reference
    }

    /// The reference of the list `before` followed by `element`.
    mutating func cell(_ element: Int, after before: Int) -> Int {
        1 + cells.number(WordPairKey(a: UInt64(element), b: UInt64(before))) { bytes in
            bytes.count(element)
            bytes.count(before)
        }
    }

    mutating func screen(_ screen: Screen) -> Int {
        let (number, isNew) = screenNumbers.number(screen, id: screen.id)
        if isNew {
            let route = routes.number(screen.route) { bytes in bytes.string(screen.route) }
            screens.string(screen.id)
            screens.count(route)
            screens.params(screen.params)
        }
        return number
    }

    private mutating func flow(_ instance: FlowInstance) -> Int {
        let (number, isNew) = flowNumbers.number(instance, id: instance.id)
        if isNew { flows.flowInstance(instance) }
        return number
    }
}
