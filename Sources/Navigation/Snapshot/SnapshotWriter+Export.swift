// What a kept change keeps for Export in a version-7 snapshot (SnapshotWriter.swift): bool, and if true varint
// id counter before the change, varint graph generation, varint undo list, varint redo list. An undo or redo
// list is a list reference (as in SnapshotWriter.swift) whose elements are trees, newest last; each list cell
// of the model is written once, looked up by its identity, so a step whose lists share all but their newest
// cell with the step before costs one cell, and the writer does not walk 200 undo entries per step.

//
// The undo lists' trees are most of a step's cost when walked as arrays, and each is a tree a kept step holds too:
// a change that pushed the tree it started from (`KeptForExport.pushedTreeBefore`) pushed the tree the step before
// keeps as its state. Before the steps are written, `noteTreesKept` maps each such tree's tabs (by their array
// buffer, which every copy of the tree shares, rebuilt undo cells included) to that kept state, and `tree` numbers
// those tabs from the kept state's cells, which the writer walks once however many steps share them. The tables
// number by value in the same order either way: the bytes are the same as without the map.

extension SnapshotWriter {
    /// Notes the tree each of the `steps` newest steps of `history` pushed onto its undo list, and those of the older
    /// steps its undo lists may still hold, with the state the step before keeps (see above).
    mutating func noteTreesKept(in history: BoundedStack<KeptChange>, steps: Int) {
        var deepest = steps
        var index = 0
        var next = history.top.map(Unmanaged.passUnretained)
        // The cells are read in place, and passed unretained (the state being encoded keeps them alive): copying each
        // step out of its cell cost as much as the rest of the walk.
        while let current = next, index < deepest {
            next = current.below()
            index += 1
            let (undoCount, pushed, revision) = current._withUnsafeGuaranteedRef { step in
                (step.element.export?.undo.count, step.element.export?.pushedTreeBefore.isSet ?? false, step.element.entry.revision)
            }
            guard let undoCount else { continue }
            if index <= steps { deepest = max(deepest, index + undoCount) }
            guard pushed, let older = next else { continue }
            let kept: KeptState? = older._withUnsafeGuaranteedRef { older in
                older.element.entry.revision + 1 == revision ? older.element.after : nil
            }
            guard let kept,
                let buffer = current._withUnsafeGuaranteedRef({ $0.element.export?.undo.top?.element.tabs.bufferAddress }),
                keptTreesByBuffer[.address(buffer)] == nil
            else { continue }
            keptTreesByBuffer.set(.address(buffer), keptTrees.count)
            keptTrees.append(kept)
        }
    }

    /// Writes `export` (nil: none) to `body`.
    mutating func export(_ export: KeptForExport?, to body: inout ByteWriter) {
        body.bool(export != nil)
        guard let export else { return }
        body.varint(export.nextId)
        body.varint(export.graph)
        body.count(treeList(export.undo))
        body.count(treeList(export.redo))
    }

    /// The list reference of `stack`: its cells from the top down to the first one already written, then
    /// written bottom-up.
    private mutating func treeList(_ stack: BoundedStack<Tree>) -> Int {
        var pending: [Unmanaged<StackCell<Tree>>] = []
        var next = stack.top.map(Unmanaged.passUnretained)
        var reference = 0
        while let current = next {
            if let known = treeCells[.cell(current)] { reference = known; break }
            pending.append(current)
            next = current.below()
        }
        for current in pending.reversed() {
            reference = cell(current._withUnsafeGuaranteedRef { tree($0.element) }, after: reference)
            treeCells.set(.cell(current), reference)
        }
        return reference
    }
}

extension SnapshotReader {
    /// Reads what `SnapshotWriter.export` wrote.
    mutating func export(_ reader: inout ByteReader) throws(SnapshotError) -> KeptForExport? {
        guard try reader.bool() else { return nil }
        let nextId = try reader.varint()
        let graph = try reader.varint()
        let undo = try treeStack(try reader.index(below: cellElements.count + 1, of: "list"))
        let redo = try treeStack(try reader.index(below: cellElements.count + 1, of: "list"))
        return KeptForExport(nextId: nextId, graph: graph, undo: undo, redo: redo)
    }

    /// The stack list `reference` names, sharing the cells of every list read before.
    private mutating func treeStack(_ reference: Int) throws(SnapshotError) -> BoundedStack<Tree> {
        var pending: [Int] = []
        var next = reference
        var below: StackCell<Tree>?
        while next > 0 {  // each cell's list is before it: the walk ends
            if let known = treeCellsByList[next] { below = known; break }
            pending.append(next)
            next = cellLists[next - 1]
        }
        for current in pending.reversed() {
            let element = cellElements[current - 1]
            guard element < treeEntries.count else { throw .corrupt("tree \(element) does not exist (there are \(treeEntries.count))") }
            let cell = StackCell(try tree(element, label: "an undo/redo tree"), below: below)
            treeCellsByList[current] = cell
            below = cell
        }
        return BoundedStack(top: below)
    }
}
