import ClientCommandLine
import NavdClient
import Testing
@testable import NavwatchCommandLine

/// `navwatch --inspect`'s parts that need no terminal: the kept revisions and which one is shown as changes
/// join, the key reader's arrow sequences, and the view's escaping of a cause from the bus.
@Suite("navwatch --inspect's timeline and keys", .timeLimit(.minutes(1)))
struct InspectTimelineTests {
    func history(_ revisions: ClosedRange<UInt64>) -> [HistoryEntry] {
        revisions.reversed().map { HistoryEntry(revision: $0, cause: "push", time: Int64($0) * 1_000_000) }
    }

    @Test("the kept revisions are the base, every listed one and the current one; the view follows the newest")
    func kept() {
        var timeline = Timeline()
        timeline.update(current: 12, history: history(5...12))
        #expect(timeline.steps.map(\.revision) == Array(4...12))
        #expect(timeline.steps.first?.change == nil, "the base has no listed change")
        #expect(timeline.shown?.revision == 12 && timeline.newer == 0)
        timeline.update(current: 13, history: history(6...13))
        #expect(timeline.shown?.revision == 13, "at the newest, the view follows")
    }

    @Test("away from the newest the view stays as revisions join, and goes to the oldest when its revision is dropped")
    func stays() {
        var timeline = Timeline()
        timeline.update(current: 3, history: history(2...3))
        timeline.move(by: -1)
        #expect(timeline.shown?.revision == 2 && timeline.newer == 1)
        timeline.update(current: 4, history: history(2...4))
        #expect(timeline.shown?.revision == 2 && timeline.newer == 2)
        timeline.move(by: -10)
        #expect(timeline.shown?.revision == 1, "stops at the base")
        timeline.update(current: 9, history: history(6...9))
        #expect(timeline.shown?.revision == 5, "revision 1 is no longer kept: the oldest kept")
        timeline.move(by: 10)
        #expect(timeline.shown?.revision == 9)
    }

    @Test("a navd with no listed change keeps only its current revision")
    func fresh() {
        var timeline = Timeline()
        timeline.update(current: 1, history: [])
        #expect(timeline.steps.map(\.revision) == [1] && timeline.shown?.revision == 1)
        timeline.reset()
        #expect(timeline.shown == nil)
    }

    @Test("arrow keys in both cursor modes, split over reads; Enter as CR or LF; other bytes as themselves")
    func keys() {
        var reader = InspectKeyReader()
        let bytes = Array("\u{1B}[D\u{1B}OC\r\ny\u{1B}[1;5Dq".utf8)
        let keys = bytes.compactMap { reader.key($0) }
        #expect(keys == [.left, .right, .enter, .enter, .other(UInt8(ascii: "y")), .left, .other(UInt8(ascii: "q"))])
    }

    @Test("a cause and a tree from the bus are drawn escaped")
    func escaped() {
        var view = InspectView(palette: Palette(enabled: true), unicode: false)
        view.timeline.update(current: 2, history: [HistoryEntry(revision: 2, cause: "push\u{1B}]0;x\u{07}", time: 0)])
        view.state = StateAtRevision(revision: 2, selectedTab: "t\u{9B}", nodes: [], facts: [:], flows: [])
        let cells = view.canvas(rows: 10, columns: 80).cells.joined()
        #expect(!cells.contains { $0.character.unicodeScalars.contains(where: \.isTerminalControl) })
        #expect(String(view.canvas(rows: 10, columns: 80).cells[1].map(\.character)).contains(#"push\e]0;x\x07"#))
    }
}
