/// A list cell, shared between copies of a `BoundedStack` and never changed once shared.
///
/// `below` is only written by `deinit` and `BoundedStack.trim`, and `element` only by
/// `BoundedStack.updateNewest`, each on cells no one else references, which is why the class can be
/// `@unchecked Sendable`.
final class StackCell<Element: Sendable>: @unchecked Sendable {
    fileprivate(set) var element: Element
    fileprivate(set) var below: StackCell<Element>?
    /// The number of cells from this one down to the bottom of the chain it was made on (a stack that cut its
    /// chain in place counts from its own bottom: `BoundedStack.count`).
    let count: Int

    init(_ element: Element, below: StackCell<Element>?) {
        self.element = element
        self.below = below
        self.count = (below?.count ?? 0) + 1
    }

    /// Releases a long chain iteratively: a recursive release of 100,000 cells would overflow the stack.
    deinit {
        var next = below
        below = nil
        while var cell = next {
            next = nil
            guard isKnownUniquelyReferenced(&cell) else { break }
            next = cell.below
            cell.below = nil
        }
    }
}

/// A persistent stack that keeps at least `keep` newest elements and at most `2 * keep`.
///
/// Push and pop are O(1) and never copy what other copies share (undo entries, history); trimming, once
/// every `keep` pushes, cuts the chain below the `keep` newest cells in place when no other copy holds any of
/// them (no cell made, no element copied), else rebuilds those `keep` cells: each push costs O(1) amortised.
struct BoundedStack<Element: Sendable>: Sendable {
    private(set) var top: StackCell<Element>?
    /// The cells' counts start this much above this stack's own count (cells cut off in place).
    private var offset = 0

    init() {}

    /// The stack whose newest cell is `top`, sharing it.
    init(top: StackCell<Element>?) { self.top = top }

    /// Newest first.
    init(newestFirst elements: [Element]) {
        for element in elements.reversed() {
            top = StackCell(element, below: top)
        }
    }

    var count: Int { top.map { $0.count - offset } ?? 0 }
    var isEmpty: Bool { top == nil }

    /// Pushes `element`; when more than `2 * keep` are held, keeps only the newest `keep` and returns the newest
    /// of those dropped (the cells dropped are released at once).
    @discardableResult
    mutating func push(_ element: Element, keep: Int) -> Element? {
        pushKeepingCutOff(element, keep: keep).dropped  // the cells cut off, if any, go with the tuple
    }

    /// `push`, handing back the cells a trim cut off in place instead of releasing them (`TrimmedCells` releases
    /// them in slices, after the call is answered).
    mutating func pushKeepingCutOff(_ element: Element, keep: Int) -> (dropped: Element?, cutOff: StackCell<Element>?) {
        guard keep > 0 else { defer { self = BoundedStack() }; return (top?.element, nil) }
        top = StackCell(element, below: top)
        return trimIfFullKeepingCutOff(keep: keep)
    }

    /// Keeps only the `keep` (> 0) newest elements when more than `2 * keep` are held (as pushes do), and returns
    /// the newest of those dropped.
    @discardableResult
    mutating func trimIfFull(keep: Int) -> Element? { trimIfFullKeepingCutOff(keep: keep).dropped }

    /// `trimIfFull`, handing back the cells cut off in place (see `pushKeepingCutOff`).
    mutating func trimIfFullKeepingCutOff(keep: Int) -> (dropped: Element?, cutOff: StackCell<Element>?) {
        guard count - keep > keep else { return (nil, nil) }  // count > 2 * keep, without overflowing for a huge keep
        return trimKeepingCutOff(keep: keep)
    }

    /// Keeps only the `keep` (> 0) newest elements and returns the newest of those dropped (nil when none was).
    @discardableResult
    mutating func trim(keep: Int) -> Element? { trimKeepingCutOff(keep: keep).dropped }

    private mutating func trimKeepingCutOff(keep: Int) -> (dropped: Element?, cutOff: StackCell<Element>?) {
        guard count > keep else { return (nil, nil) }
        if let cut = cutInPlace(keep: keep) { return (cut.element, cut) }
        let kept = newest(keep + 1)
        self = BoundedStack(newestFirst: Array(kept.prefix(keep)))
        return (kept[keep], nil)
    }

    /// Cuts the chain below the `keep` newest cells, when this stack is the only holder of each of them (so no
    /// other copy can see the cut), and returns the newest cell cut off (the caller's to release); nil, changing
    /// nothing, otherwise.
    private mutating func cutInPlace(keep: Int) -> StackCell<Element>? {
        guard keep > 0, isKnownUniquelyReferenced(&top), var cell = top else { return nil }
        for _ in 1..<keep {
            guard isKnownUniquelyReferenced(&cell.below), let below = cell.below else { return nil }
            cell = below
        }
        guard let first = cell.below else { return nil }
        offset = cell.count - 1
        cell.below = nil
        return first
    }

    /// Removes and returns the newest element.
    mutating func pop() -> Element? {
        guard let cell = top else { return nil }
        top = cell.below
        if top == nil { offset = 0 }
        return cell.element
    }

    /// Up to `limit` elements, newest first.
    func newest(_ limit: Int) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(Swift.min(limit, count))
        var cell = top
        while let current = cell, result.count < limit {
            result.append(current.element)
            cell = current.below
        }
        return result
    }

    /// Replaces the newest element by what `update` makes of it (nothing when empty); shares the rest. A newest
    /// cell no other copy holds is updated in place (no cell made, the element not copied).
    mutating func updateNewest(_ update: (inout Element) -> Void) {
        if isKnownUniquelyReferenced(&top) {
            update(&top!.element)
            return
        }
        guard let cell = top else { return }
        var element = cell.element
        update(&element)
        top = StackCell(element, below: cell.below)
    }

    /// Every element, newest first.
    var all: [Element] { newest(count) }

    /// Calls `body` with the position (0: the newest) and each of up to `limit` elements, newest first, until it
    /// answers false; copies nothing.
    func walk(_ limit: Int, _ body: (Int, Element) -> Bool) {
        var cell = top
        var index = 0
        while let current = cell, index < limit, body(index, current.element) {
            cell = current.below
            index += 1
        }
    }
}

extension BoundedStack: Equatable where Element: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.top === rhs.top { return true }
        return lhs.count == rhs.count && lhs.all == rhs.all
    }
}

extension BoundedStack: Hashable where Element: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        if let newest = top?.element { hasher.combine(newest) }
    }
}

/// Cells a trim cut off, released a slice at a time: releasing a thousand kept changes at once takes about a
/// millisecond, which would sit between a call and its reply. Holds one trim's cells: a trim that comes before the
/// last one's are all released releases the rest of them at once (a state that is never sliced, such as a
/// replay's, keeps no more than one trim). Not part of a state's value: two states are equal whatever cells they
/// are still releasing.
struct TrimmedCells<Element: Sendable>: Hashable, Sendable {
    private var chain: StackCell<Element>?

    /// Whether nothing is waiting to be released.
    var isEmpty: Bool { chain == nil }

    /// Holds `chain` (the newest cell cut off; the rest hang below it) until it is released.
    mutating func hold(_ newer: StackCell<Element>) { chain = newer }

    /// Releases up to `limit` cells; returns how many it walked past. A cell another copy still holds ends the
    /// release there (that copy releases the rest).
    @discardableResult
    mutating func release(upTo limit: Int) -> Int {
        var rest = chain
        var walked = 0
        while walked < limit, let cell = rest {
            rest = cell.below
            walked += 1
        }
        // Replacing the head releases every cell above `rest`, which the local still holds.
        chain = rest
        return walked
    }

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
