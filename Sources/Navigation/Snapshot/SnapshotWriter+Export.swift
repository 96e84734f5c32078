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
        var cell = history.top
        // The cells are read in place: copying each step out of its cell cost as much as the rest of the walk.
        while let current = cell, index < deepest {
            cell = current.below
            index += 1
            guard let export = current.element.export else { continue }
            if index <= steps { deepest = max(deepest, index + export.undo.count) }
            guard export.pushedTreeBefore.isSet, let older = cell, older.element.entry.revision + 1 == current.element.entry.revision,
                let kept = older.element.after, let buffer = export.undo.top?.element.tabs.bufferAddress,
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
        var pending: [StackCell<Tree>] = []
        var cell = stack.top
        var reference = 0
        while let current = cell {
            if let known = treeCells[.object(current)] { reference = known; break }
            pending.append(current)
            cell = current.below
        }
        for current in pending.reversed() {
            reference = self.cell(tree(current.element), after: reference)
            treeCells.set(.object(current), reference)
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
