// The snapshot writer's side of the kept states' compact form (Model/KeptState.swift): a kept stack's cells become
// the document's list cells one for one, each written once however many kept steps share it, so the document
// shares exactly what memory shares. The format is the one in SnapshotWriter.swift.

extension SnapshotWriter {
    /// The number of the tree `kept` holds.
    mutating func keptTree(_ kept: KeptState) -> Int {
        treeNumber(kept.treeShape, tabs: keptTabs(kept))
    }

    /// The list reference of the tabs `kept` holds.
    mutating func keptTabs(_ kept: KeptState) -> Int {
        list(kept.keptTabs) { writer, tab in writer.keptTab(tab) }
    }

    private mutating func keptTab(_ tab: KeptTab) -> Int {
        tabNumber(Tab(name: tab.name, id: tab.id, list: list(tab.layers) { writer, frame in writer.keptStack(frame) }))
    }

    private mutating func keptStack(_ frame: KeptFrame) -> Int {
        stackNumber(Frame(style: frame.style.code, list: cellList(frame.screens)))
    }

    /// The list reference of the stack whose top cell is `top`: only the cells not written before are walked.
    private mutating func cellList(_ top: StackCell<Screen>) -> Int {
        var pending: [Unmanaged<StackCell<Screen>>] = []
        var next: Unmanaged<StackCell<Screen>>? = Unmanaged.passUnretained(top)
        var reference = 0
        while let current = next {
            if let known = listByCell[.cell(current)] {
                reference = known
                break
            }
            pending.append(current)
            next = current.below()
        }
        for current in pending.reversed() {
            reference = cell(current._withUnsafeGuaranteedRef { screen($0.element) }, after: reference)
            listByCell.set(.cell(current), reference)
        }
        return reference
    }
}

extension Unmanaged {
    /// The cell below, unretained: the writer walks chains the state being encoded keeps alive, and a strong
    /// reference retained and released each cell it passed (atomic operations, on cells the loop's thread shares).
    func below<Element>() -> Unmanaged<StackCell<Element>>? where Instance == StackCell<Element> {
        _withUnsafeGuaranteedRef { $0.below.map(Unmanaged<StackCell<Element>>.passUnretained) }
    }
}
