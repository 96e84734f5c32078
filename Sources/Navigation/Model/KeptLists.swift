// The undo and redo lists right after each kept change, made again from what each change did to them.
//
// A kept step holds what its change did (`ListChange`: the tree before it pushed, both lists cleared, N trees
// moved by an Undo, ...) and the lists' lengths after it; the lists themselves are made when asked for, by
// folding those changes forward from lists that are known: the base's (made again at each trim, when the base
// moves), or a step's own that holds them (`KeptLists.lists`: the first change after a state whose lists no
// step says, and every step an older snapshot restored). The tree a change pushed is the state the step before
// keeps, so the lists made are the kept states again, sharing their cells: nothing is copied.

/// A tree in a kept step's undo or redo list: one the live lists held, or the state a kept step holds.
enum ListedTree: Hashable, Sendable {
    case tree(Tree)
    case kept(KeptState)

    /// The tree itself (made again from a kept state's compact form).
    var tree: Tree {
        switch self {
        case .tree(let tree): tree
        case .kept(let kept): kept.state.tree
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.tree == rhs.tree }
    func hash(into hasher: inout Hasher) { hasher.combine(tree) }
}

/// The undo and redo lists right after a change.
struct ListPair: Hashable, Sendable {
    var undo: BoundedStack<ListedTree>
    var redo: BoundedStack<ListedTree>

    /// The live lists' trees as listed trees (each cell made again: done only where no step says how they came).
    init(undo: BoundedStack<Tree>, redo: BoundedStack<Tree>) {
        self.undo = BoundedStack(newestFirst: undo.all.map(ListedTree.tree))
        self.redo = BoundedStack(newestFirst: redo.all.map(ListedTree.tree))
    }

    init(undo: BoundedStack<ListedTree>, redo: BoundedStack<ListedTree>) {
        self.undo = undo
        self.redo = redo
    }

    static let empty = ListPair(undo: BoundedStack<ListedTree>(), redo: BoundedStack<ListedTree>())
}

/// What a change did to the undo and redo lists, and their lengths right after it (a reload that lowers
/// `max-undo` shortens them between changes: the lengths say how far).
struct ListChange: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// The tree before the change pushed onto undo; redo cleared.
        case record
        /// Both lists as they were.
        case keep
        /// Both lists cleared.
        case clear
        /// Undo: `count` trees taken off undo, the tree before the change and each passed over pushed onto redo.
        case undo(count: Int)
        /// Redo: the same, the lists' roles swapped.
        case redo(count: Int)
    }

    var kind: Kind
    var undoCount: Int
    var redoCount: Int

    /// Makes `lists` (those right after the step before) the lists after the change; `before` is the state the
    /// step before keeps. False, leaving `lists` as it is, when the change pushed a tree `before` does not give.
    func apply(to lists: inout ListPair, before: () -> ListedTree?) -> Bool {
        switch kind {
        case .record:
            guard let before = before() else { return false }
            lists.undo.push(before, keep: .max)
            lists.redo = BoundedStack()
        case .keep:
            break
        case .clear:
            lists = .empty
        case .undo(let count), .redo(let count):
            guard var leaving = before() else { return false }
            let isUndo = if case .undo = kind { true } else { false }
            for _ in 0..<count {
                guard let taken = isUndo ? lists.undo.pop() : lists.redo.pop() else { break }
                if isUndo { lists.redo.push(leaving, keep: .max) } else { lists.undo.push(leaving, keep: .max) }
                leaving = taken
            }
        }
        // A list no one else holds is cut in place (no cell made).
        if lists.undo.count > undoCount { lists.undo.trim(keep: undoCount) }
        if lists.redo.count > redoCount { lists.redo.trim(keep: redoCount) }
        return true
    }
}

/// The live lists as they were right after a revision, which the next snapshot's writer folds from
/// (`Coordinator.markListsForSnapshot`). Not part of the state's value; a state made from another (redacted,
/// decoded, a recording's start) starts without one.
struct ListsMark: Hashable, Sendable {
    var revision: UInt64?
    private var undo = BoundedStack<Tree>()
    private var redo = BoundedStack<Tree>()

    init() {}

    init(revision: UInt64, undo: BoundedStack<Tree>, redo: BoundedStack<Tree>) {
        self.revision = revision
        self.undo = undo
        self.redo = redo
    }

    /// The lists, as listed trees (each cell made again).
    var lists: ListPair? { revision == nil ? nil : ListPair(undo: undo, redo: redo) }

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// How a kept step holds its lists: what its change did to them, or the lists themselves.
enum KeptLists: Hashable, Sendable {
    case change(ListChange)
    case lists(ListPair)
}

extension BoundedStack where Element == ListedTree {
    /// The trees, as the live lists hold them.
    var trees: BoundedStack<Tree> { BoundedStack<Tree>(newestFirst: all.map(\.tree)) }
}

extension NavigationState {
    /// Whether the lists right after revision `revision` (the one before a change being made) can be made again:
    /// the newest step made it and says how its lists came, or it is the base, whose lists are known.
    func listsKnown(at revision: UInt64) -> Bool {
        if let newest = history.top?.element { return newest.entry.revision == revision && newest.export != nil }
        return base?.revision == revision && baseExport != nil
    }

    /// The lists right after each of the history's steps, newest first (nil where they cannot be made again).
    var listsOfSteps: [ListPair?] { listsOfSteps(newest: history.count) }

    /// The lists right after each of the `count` newest history steps, newest first (nil where they cannot be
    /// made again). Folds from the live lists `listsMark` kept when they are of a revision at or below those
    /// steps (each snapshot's writer, with the mark its navigator set at the snapshot before: it folds the steps
    /// made since), else from the base through every step; the steps are read in place.
    func listsOfSteps(newest count: Int) -> [ListPair?] {
        var cells: [Unmanaged<StackCell<KeptChange>>] = []
        cells.reserveCapacity(min(history.count, count + 1))
        var next = history.top.map(Unmanaged.passUnretained)
        var start: (lists: ListPair?, after: Unmanaged<StackCell<KeptChange>>?)?
        while let cell = next {
            let revision = cell._withUnsafeGuaranteedRef { $0.element.entry.revision }
            if cells.count >= count, let mark = listsMark.lists, listsMark.revision == revision {
                start = (mark, cell)
                break
            }
            cells.append(cell)
            next = cell.below()
        }
        if start == nil, let base, let mark = listsMark.lists, listsMark.revision == base.revision, cells.count >= count {
            start = (mark, nil)
        }
        var result: [ListPair?] = []
        result.reserveCapacity(min(max(0, count), cells.count))
        fold(cells, through: 0, from: start ?? (baseExport?.lists.pair, nil)) { position, lists in
            if position < count { result.append(lists) }
        }
        result.reverse()
        return result
    }

    /// The lists right after the step `position` below the newest (0: the newest), folded from the base: what a
    /// trim makes the new base's. Nothing else holds the lists on the way, so their trims cut in place.
    func listsOfStep(at position: Int) -> ListPair? {
        var cells: [Unmanaged<StackCell<KeptChange>>] = []
        cells.reserveCapacity(history.count)
        var next = history.top.map(Unmanaged.passUnretained)
        while let cell = next {
            cells.append(cell)
            next = cell.below()
        }
        guard position >= 0, position < cells.count else { return nil }
        var found: ListPair?
        fold(cells, through: position, from: (baseExport?.lists.pair, nil)) { at, lists in
            if at == position { found = lists }
        }
        return found
    }

    /// Folds the steps of `cells` (newest first) from the oldest to the one at `last`, starting from `start`: the
    /// lists right before the oldest and the step they are right after (nil: the base); `body` gets each step's
    /// position and lists. The cells are read unretained: the state keeps them alive.
    private func fold(
        _ cells: [Unmanaged<StackCell<KeptChange>>], through last: Int,
        from start: (lists: ListPair?, after: Unmanaged<StackCell<KeptChange>>?), _ body: (Int, ListPair?) -> Void
    ) {
        var lists = start.lists
        var older = start.after
        let base = self.base
        for position in stride(from: cells.count - 1, through: last, by: -1) {
            let cell = cells[position]
            cell._withUnsafeGuaranteedRef { step in
                Self.follow(step.element.export?.lists, &lists) {
                    if let older { return older._withUnsafeGuaranteedRef { $0.element.after.map(ListedTree.kept) } }
                    return base.map { .tree($0.state.tree) }
                }
            }
            body(position, lists)
            older = cell
        }
    }

    /// The lists right after kept `revision` (a history step's, or the base's); nil when they cannot be made again.
    func listsAfter(revision: UInt64) -> ListPair? {
        if let base, base.revision == revision { return baseExport?.lists.pair }
        var found: Int?
        history.walk(history.count) { position, step in
            if step.entry.revision == revision { found = position }
            return step.entry.revision > revision
        }
        guard let found else { return nil }
        return listsOfStep(at: found)
    }

    /// Makes `lists` (those right after the step before; nil: not known) the lists after a step that holds
    /// `kept` (nil: nothing of them); `before` gives the state the step before keeps. The one rule both folds use.
    private static func follow(_ kept: KeptLists?, _ lists: inout ListPair?, before: () -> ListedTree?) {
        switch kept {
        case nil: lists = nil
        case .lists(let pair): lists = pair
        case .change(let change):
            // Taken out, so that the fold is the lists' only holder and their trims cut in place.
            guard var made = lists.take() else { return }
            if change.apply(to: &made, before: before) { lists = made }
        }
    }

    /// The lists right after each of `steps` (oldest first, each the change after the one before), from `start`,
    /// the lists right before the first, and `before`, the state right before it.
    static func lists(after steps: [KeptChange], from start: ListPair?, before: ListedTree?) -> [ListPair?] {
        var lists = start
        var before = before
        var result: [ListPair?] = []
        result.reserveCapacity(steps.count)
        for step in steps {
            follow(step.export?.lists, &lists) { before }
            before = step.after.map(ListedTree.kept)
            result.append(lists)
        }
        return result
    }
}

extension KeptLists {
    /// The lists, when held.
    var pair: ListPair? {
        if case .lists(let pair) = self { return pair }
        return nil
    }
}
