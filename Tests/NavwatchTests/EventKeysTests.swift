@testable import NavdClient
import Testing
@testable import NavwatchCommandLine

/// The terminal view's keys for events: one per event, deterministic, never `q`, and the view draws them.
@Suite("navwatch's event keys", .timeLimit(.minutes(1)))
struct EventKeysTests {
    @Test("each event takes the first free letter, last word first; q is never given")
    func assignment() {
        let keys = EventKeys(["next", "root", "end", "show-modal"])
        #expect(keys.bindings.map(\.key) == ["n", "r", "e", "m"])
        #expect(keys.line(unicode: true) == "n next · r root · e end · m show-modal")
        #expect(keys.line(unicode: false) == "n next  r root  e end  m show-modal")
        #expect(EventKeys(["quit", "query"]).bindings.map(\.key) == ["u", "e"])
        #expect(EventKeys(["next", "new", "nn"]).bindings.map(\.key) == ["n", "e", "1"])
        #expect(keys.event(for: UInt8(ascii: "m")) == "show-modal")
        #expect(keys.event(for: UInt8(ascii: "q")) == nil)
        #expect(keys.event(for: UInt8(ascii: "x")) == nil)
    }

    @Test("the same events always get the same keys; more events than keys leave the rest unbound")
    func determinism() {
        let names = (0..<40).map { "event-\($0)" }
        #expect(EventKeys(names).bindings.map(\.key) == EventKeys(names).bindings.map(\.key))
        #expect(EventKeys(names).bindings.count == 35)
        #expect(Set(EventKeys(names).bindings.map(\.key)).count == 35)
    }

    @Test("the view draws the keys above the status line and labels the card of a flow's first screen")
    func drawing() {
        var view = TerminalView(palette: Palette(enabled: false), unicode: false)
        view.change = StateChange(cause: "send", state: VisibleState(revision: 3, tab: "profile", path: [
            Entry(id: "1", route: "profile", presentation: .root),
            Entry(id: "7", route: "login", presentation: .cover),
        ]))
        view.keys = EventKeys(["forgot-password", "succeeded", "cancel"])
        view.flows = [FlowInfo(id: "6", flow: "auth", firstScreen: "7", params: [:])]
        view.note = "account: redirected"
        let canvas = view.canvas(rows: 20, columns: 80)
        let lines = canvas.cells.map { String($0.map(\.character)) }
        #expect(lines[18].hasPrefix(" p forgot-password  s succeeded  c cancel"), "\(lines[18])")
        #expect(lines[19].contains("account: redirected"), "\(lines[19])")
        #expect(lines.filter { $0.contains("flow auth") }.count == 1, "\(lines)")
    }
}
