/// An immutable list cell; shared between copies of a `BoundedStack`.
///
/// `below` is only written by `deinit`, on cells no one else references, which is why the
/// class can be `@unchecked Sendable`.
final class StackCell<Element: Sendable>: @unchecked Sendable {
    let element: Element
    private(set) var below: StackCell<Element>?
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
/// Push and pop are O(1) and never copy what other copies share (undo entries, history); trimming
/// rebuilds `keep` cells once every `keep` pushes, so each push costs O(1) amortised.
struct BoundedStack<Element: Sendable>: Sendable {
    private(set) var top: StackCell<Element>?

    init() {}

    /// The stack whose newest cell is `top`, sharing it.
    init(top: StackCell<Element>?) { self.top = top }

    /// Newest first.
    init(newestFirst elements: [Element]) {
        for element in elements.reversed() {
            top = StackCell(element, below: top)
        }
    }

    var count: Int { top?.count ?? 0 }
    var isEmpty: Bool { top == nil }

    /// Pushes `element`; when more than `2 * keep` are held, keeps only the newest `keep` and returns the newest
    /// of those dropped.
    @discardableResult
    mutating func push(_ element: Element, keep: Int) -> Element? {
        guard keep > 0 else { defer { top = nil }; return top?.element }
        top = StackCell(element, below: top)
        guard count - keep > keep else { return nil }  // count > 2 * keep, without overflowing for a huge keep
        let kept = newest(keep + 1)
        self = BoundedStack(newestFirst: Array(kept.prefix(keep)))
        return kept[keep]
    }

    /// Removes and returns the newest element.
    mutating func pop() -> Element? {
        guard let cell = top else { return nil }
        top = cell.below
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

    /// Replaces the newest element by what `update` makes of it (nothing when empty); shares the rest.
    mutating func updateNewest(_ update: (inout Element) -> Void) {
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
