// The form a kept history step holds its state in (docs/durability.md#bounded-saved-state): the tree's stacks as
// immutable lists of screens, top first (StackCell, one screen per cell), each sharing the bottom it has in common
// with the stack at the same place in the step before. A Push on a stack of 128 screens adds one cell, a Pop none,
// a stack the change did not touch is the same list again: a step costs what its change did, never (tree size ×
// steps). The state is made a Tree again only when asked for (GetTreeAt, Revert, the base); the live tree stays
// arrays.

/// A kept state in compact form; `state` is the state it holds.
struct KeptState: Hashable, Sendable {
    /// The state with the tree's tabs left out (they are `tabs`): facts, flows, selection, and whatever else a
    /// kept state carries.
    private var shape: RevisionState
    private var tabs: [KeptTab]

    /// `state` in compact form, sharing with `previous` what it has in common with it; `previousTree` is the
    /// tree `previous` was made from, when the caller still holds it: a stack whose array buffer is that tree's at
    /// the same place is `previous`'s list again, without comparing screens.
    init(_ state: RevisionState, sharingWith previous: KeptState? = nil, madeFrom previousTree: Tree? = nil) {
        // Read in place: optional copies of the older tabs, made for each tab of each step, were a quarter of this,
        // and copies of the tabs themselves (each a name, an id and a stacks array retained and released) most of
        // the rest.
        let olderTabs = previous?.tabs ?? [], sources = previousTree?.tabs ?? []
        let count = state.tree.tabs.count
        var tabs: [KeptTab] = []
        tabs.reserveCapacity(count)
        // Whether every tab is the older one's, stacks array and all. A tab made again that equals the older one
        // shares its stacks array (`KeptTab.init`), so this is equality, without comparing the tabs' screens.
        var same = previous != nil && count == olderTabs.count
        for index in 0..<count {
            guard index < olderTabs.count else {
                tabs.append(KeptTab(state.tree.tabs[index], sharing: [], madeFrom: []))
                continue
            }
            // A tab the change did not touch still has the stacks array it was made from: it is the older tab again.
            if index < sources.count, KeptTab.isUnchanged(state.tree.tabs[index], from: sources[index]) {
                tabs.append(olderTabs[index])
            } else {
                let made = KeptTab(state.tree.tabs[index], sharing: olderTabs[index].layers, madeFrom: index < sources.count ? sources[index].layers : [])
                same = same && made.isSame(as: olderTabs[index])
                tabs.append(made)
            }
        }
        if same, let previous { tabs = previous.tabs }  // the same array: nothing new per step
        shape = state
        shape.tree.tabs = []
        self.tabs = tabs
    }

    /// The whole state, made again (a Tree of arrays).
    var state: RevisionState {
        var whole = shape
        whole.tree.tabs = tabs.map(\.tab)
        return whole
    }

    /// Every fact's value.
    var facts: [String: ParamValue] { shape.facts }

    /// The selected tab's name ("" when untabbed).
    var selectedTab: String { shape.tree.isTabbed ? tabs[shape.tree.selected].name : "" }

    /// The route on top of the selected tab's path.
    var topRoute: String { tabs[shape.tree.selected].layers[tabs[shape.tree.selected].layers.count - 1].screens.element.route }

    /// The number of distinct list cells (screens) reachable from `states`: what their stacks hold in memory.
    static func cellCount(_ states: [KeptState]) -> Int {
        var seen = Set<ObjectIdentifier>()
        for state in states {
            for tab in state.tabs {
                for frame in tab.layers {
                    var cell: StackCell<Screen>? = frame.screens
                    while let current = cell, seen.insert(ObjectIdentifier(current)).inserted { cell = current.below }
                }
            }
        }
        return seen.count
    }

    /// The tabs, for the snapshot writer.
    var keptTabs: [KeptTab] { tabs }
    /// The tree without its tabs (selection, flows), for the snapshot writer.
    var treeShape: Tree { shape.tree }
}

/// A tab of a kept state: its name, id and stacks.
struct KeptTab: Hashable, Sendable {
    var name: String
    var id: String
    var layers: [KeptFrame]

    /// Whether `tab` is still the tab `source` with the stacks array it had: nothing in it changed.
    static func isUnchanged(_ tab: TabStack, from source: TabStack) -> Bool {
        source.layers.sameBuffer(as: tab.layers) && source.name == tab.name && source.id == tab.id
    }

    /// `tab` in compact form, its stacks sharing with `olderLayers` (the stacks of the older tab at its place, none
    /// for a new tab), which were made from `sources` (that tab's stacks, when the caller still holds them: a stack
    /// whose screens array is the source's at the same place is the older stack again, without comparing screens).
    /// The arrays are taken, not tabs: optional tabs passed in were copies, each a name, an id and a stacks array
    /// retained and released.
    init(_ tab: TabStack, sharing olderLayers: [KeptFrame], madeFrom sources: [StackFrame]) {
        name = tab.name
        id = tab.id
        var layers: [KeptFrame] = []
        layers.reserveCapacity(tab.layers.count)
        // Whether every stack is the older one's cell for cell: `StackCell.list` gives back the older top cell when
        // all the screens match, so this is equality, without comparing screens.
        var same = tab.layers.count == olderLayers.count
        for index in tab.layers.indices {
            guard index < olderLayers.count else {
                layers.append(KeptFrame(style: tab.layers[index].style, screens: .list(tab.layers[index].screens, sharing: nil)))
                continue
            }
            if index < sources.count, sources[index].style == tab.layers[index].style,
               sources[index].screens.sameBuffer(as: tab.layers[index].screens) {
                layers.append(olderLayers[index])
            } else {
                let older = olderLayers[index].screens
                let screens = StackCell.list(tab.layers[index].screens, sharing: older)
                same = same && screens === older && tab.layers[index].style == olderLayers[index].style
                layers.append(KeptFrame(style: tab.layers[index].style, screens: screens))
            }
        }
        self.layers = same ? olderLayers : layers
    }

    /// Whether `self` is `other` with the same stacks array: equal, as a tab `init` made is whenever it equals the
    /// older tab it was made from.
    func isSame(as other: KeptTab) -> Bool {
        layers.sameBuffer(as: other.layers) && name == other.name && id == other.id
    }

    /// The tab as the live model holds it.
    var tab: TabStack { TabStack(name: name, id: id, layers: layers.map(\.frame)) }
}

/// A stack of a kept state: its style and its screens, the top one first.
struct KeptFrame: Hashable, Sendable {
    var style: Presentation
    /// The top screen's cell; the cells below it hold the rest (a stack is never empty).
    var screens: StackCell<Screen>

    /// The stack as the live model holds it.
    var frame: StackFrame { StackFrame(style: style, screens: screens.bottomFirst) }

    static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.style == rhs.style else { return false }
        var left: StackCell<Screen>? = lhs.screens, right: StackCell<Screen>? = rhs.screens
        while let l = left, let r = right {
            if l === r { return true }
            guard l.count == r.count, l.element == r.element else { return false }
            left = l.below
            right = r.below
        }
        return left == nil && right == nil
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(style)
        hasher.combine(screens.count)
        hasher.combine(screens.element.id)
    }
}

extension StackCell where Element == Screen {
    /// The list of `screens` (bottom first; not empty), sharing the longest bottom it has in common with
    /// `previous`: only the screens above that bottom get cells of their own.
    static func list(_ screens: [Screen], sharing previous: StackCell<Screen>?) -> StackCell<Screen> {
        var cursor = previous
        while let cell = cursor, cell.count > screens.count { cursor = cell.below }
        var shared = cursor  // what stays when every screen below matches
        while let cell = cursor {
            if cell.element != screens[cell.count - 1] { shared = cell.below }
            cursor = cell.below
        }
        var top = shared
        for screen in screens[(shared?.count ?? 0)...] { top = StackCell(screen, below: top) }
        return top!  // screens is not empty
    }

    /// The screens, bottom first.
    var bottomFirst: [Screen] {
        var screens: [Screen] = []
        screens.reserveCapacity(count)
        var cell: StackCell<Screen>? = self
        while let current = cell {
            screens.append(current.element)
            cell = current.below
        }
        screens.reverse()
        return screens
    }
}

extension Array {
    /// The address of the array's buffer (nil when it has none): arrays that share a buffer have the same one.
    /// Only compared while both arrays are alive.
    var bufferAddress: UnsafeRawPointer? { withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) } }

    /// Whether both arrays are the same buffer (so, as both are alive, the same elements).
    func sameBuffer(as other: [Element]) -> Bool {
        count == other.count && bufferAddress != nil && bufferAddress == other.bufferAddress
    }
}

extension KeptState {
    /// Gives each of `steps` (newest first) its state from `states` (the same order) in compact form, oldest first,
    /// each sharing with the step before it: states read back share again what they shared before.
    static func share(_ states: [RevisionState?], into steps: inout [KeptChange]) {
        var previous: (kept: KeptState, tree: Tree)?
        for index in steps.indices.reversed() {
            guard let state = states[index] else {
                previous = nil
                continue
            }
            let kept = KeptState(state, sharingWith: previous?.kept, madeFrom: previous?.tree)
            steps[index].after = kept
            previous = (kept, state.tree)
        }
    }
}
