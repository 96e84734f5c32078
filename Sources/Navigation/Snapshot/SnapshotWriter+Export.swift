// What a kept change keeps for Export in a version-7 snapshot (SnapshotWriter.swift): bool, and if true varint
// id counter before the change, varint graph generation, varint undo list, varint redo list. An undo or redo
// list is a list reference (as in SnapshotWriter.swift) whose elements are trees, newest last; each list cell
// of the model is written once, looked up by its identity, so a step whose lists share all but their newest
// cell with the step before costs one cell, and the writer does not walk 200 undo entries per step.

//
// A kept step holds what its change did to the lists, not the lists (Model/KeptLists.swift): the writer makes
// them again, folding from the live lists navd marked at the snapshot before, or else from the base's
// (`NavigationState.listsOfSteps`). The trees a change pushed are the
// states the steps before keep, so they are numbered from those states' cells, which the writer walks once
// however many steps share them. The tables number by value: the bytes are those the lists themselves made.

extension SnapshotWriter {
    /// Writes `export` (nil: none) to `body`, with `lists`, the lists right after its change (nil: not known,
    /// and then nothing is written of the export either).
    mutating func export(_ export: KeptForExport?, lists: ListPair?, to body: inout ByteWriter) {
        guard let export, let lists else {
            body.bool(false)
            return
        }
        body.bool(true)
        body.varint(export.nextId)
        body.varint(export.graph)
        body.count(treeList(lists.undo))
        body.count(treeList(lists.redo))
    }

    /// The list reference of `stack`: its cells from the top down to the first one already written, then
    /// written bottom-up.
    private mutating func treeList(_ stack: BoundedStack<ListedTree>) -> Int {
        var pending: [Unmanaged<StackCell<ListedTree>>] = []
        var next = stack.top.map(Unmanaged.passUnretained)
        var reference = 0
        while let current = next {
            if let known = treeCells[.cell(current)] { reference = known; break }
            pending.append(current)
            next = current.below()
        }
        for current in pending.reversed() {
            let number = current._withUnsafeGuaranteedRef { cell in
                switch cell.element {
                case .tree(let tree): self.tree(tree)
                case .kept(let kept): keptTree(kept)
                }
            }
            reference = cell(number, after: reference)
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
        return KeptForExport(nextId: nextId, graph: graph, lists: .lists(ListPair(undo: undo, redo: redo)))
    }

    /// The stack list `reference` names, sharing the cells of every list read before.
    private mutating func treeStack(_ reference: Int) throws(SnapshotError) -> BoundedStack<ListedTree> {
        var pending: [Int] = []
        var next = reference
        var below: StackCell<ListedTree>?
        while next > 0 {  // each cell's list is before it: the walk ends
            if let known = treeCellsByList[next] { below = known; break }
            pending.append(next)
            next = cellLists[next - 1]
        }
        for current in pending.reversed() {
            let element = cellElements[current - 1]
            guard element < treeEntries.count else { throw .corrupt("tree \(element) does not exist (there are \(treeEntries.count))") }
            let cell = StackCell(ListedTree.tree(try tree(element, label: "an undo/redo tree")), below: below)
            treeCellsByList[current] = cell
            below = cell
        }
        return BoundedStack(top: below)
    }
}
