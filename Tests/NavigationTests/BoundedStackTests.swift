import Testing
@testable import Navigation

/// `BoundedStack` trims once every `keep` pushes. A stack that alone holds its newest cells cuts its chain in place
/// (no cell made, no element copied); one that shares them with a copy (a snapshot being encoded holds the state)
/// rebuilds its newest cells and leaves the copy whole.
@Suite(.timeLimit(.minutes(1)))
struct BoundedStackTests {
    /// A stack of 0 ... `count - 1` pushed with `keep`, and what each push returned.
    func pushed(_ count: Int, keep: Int) -> (stack: BoundedStack<Int>, dropped: [Int]) {
        var stack = BoundedStack<Int>()
        var dropped: [Int] = []
        for element in 0..<count { if let gone = stack.push(element, keep: keep) { dropped.append(gone) } }
        return (stack, dropped)
    }

    @Test func aStackHoldingItsCellsAloneTrimsInPlace() {
        var stack = BoundedStack<Int>()
        for element in 0..<8 { stack.push(element, keep: 4) }
        weak var top = stack.top  // not a holder: the stack still holds its cells alone
        let dropped = stack.push(8, keep: 4)
        #expect(dropped == 4)
        #expect(stack.count == 4)
        #expect(stack.all == [8, 7, 6, 5])
        // The cell below the one pushed is still the one that was on top: nothing was rebuilt.
        #expect(top != nil && stack.top?.below === top)
    }

    /// The cells an in-place trim cuts off are not released inside the push (the service answers first): the stack
    /// hands them back, and `TrimmedCells` releases them a slice at a time.
    @Test func cellsCutOffInPlaceAreReleasedInSlices() throws {
        final class Marker: Sendable {}
        var stack = BoundedStack<Marker>()
        for _ in 0..<8 { stack.push(Marker(), keep: 4) }
        weak var oldest = stack.newest(8).last
        weak var newestCut = stack.newest(5).last
        #expect(oldest != nil && newestCut != nil)
        var trimmed = TrimmedCells<Marker>()
        var pushed = stack.pushKeepingCutOff(Marker(), keep: 4)
        #expect(pushed.dropped != nil && stack.count == 4)
        trimmed.hold(try #require(pushed.cutOff))
        pushed = (nil, nil)
        #expect(oldest != nil && newestCut != nil, "the push released what it cut off")
        let first = trimmed.release(upTo: 2)
        #expect(first == 2)
        #expect(newestCut == nil, "the first slice left the newest cell cut off alive")
        #expect(oldest != nil, "the first slice released more than its two cells")
        let rest = trimmed.release(upTo: 100)
        #expect(rest == 3)
        #expect(oldest == nil && trimmed.isEmpty)
        // A plain push releases at once.
        weak var gone = stack.newest(4).last
        for _ in 0..<5 { stack.push(Marker(), keep: 4) }
        #expect(gone == nil)
    }

    @Test func aStackSharingItsCellsRebuildsAndLeavesTheCopyWhole() {
        var stack = BoundedStack<Int>()
        for element in 0..<8 { stack.push(element, keep: 4) }
        var copy = stack
        let dropped = stack.push(8, keep: 4)
        #expect(dropped == 4)
        #expect(stack.all == [8, 7, 6, 5])
        #expect(copy.count == 8)
        #expect(copy.all == [7, 6, 5, 4, 3, 2, 1, 0])
        copy.push(9, keep: 100)
        #expect(copy.all == [9, 7, 6, 5, 4, 3, 2, 1, 0])
    }

    @Test func countsStayRightAcrossManyCutsPopsAndUpdates() {
        var (stack, dropped) = pushed(1_000, keep: 10)
        #expect(stack.count == 10 + (1_000 - 10) % 11)
        #expect(stack.all == Array((1_000 - stack.count)..<1_000).reversed())
        #expect(dropped.count == (1_000 - 10) / 11)
        stack.updateNewest { $0 = -1 }
        #expect(stack.all.first == -1)
        while !stack.isEmpty { _ = stack.pop() }
        #expect(stack.count == 0)
        stack.push(5, keep: 10)
        #expect(stack.count == 1 && stack.all == [5])
    }

    @Test func trimKeepsTheNewestAndNamesTheNewestDropped() {
        var (stack, _) = pushed(15, keep: 100)
        #expect(stack.trim(keep: 20) == nil)
        #expect(stack.trim(keep: 6) == 8)
        #expect(stack.all == [14, 13, 12, 11, 10, 9])
        #expect(stack == BoundedStack(newestFirst: [14, 13, 12, 11, 10, 9]))
    }

    @Test func longChainsReleaseWithoutDeepRecursion() {
        var stack = BoundedStack<Int>()
        for value in 0..<300_000 { stack.push(value, keep: 200_000) }
        let copy = stack
        #expect(copy.count == stack.count && stack.count >= 200_000)
        stack = BoundedStack()
        #expect(copy.newest(2) == [299_999, 299_998])
    }
}
