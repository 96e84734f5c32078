import Foundation
import NavdClient
import TestSupport
import Testing

/// navctl replay against recordings a real navd made (docs/devtools.md, "Recordings"): a session replays all
/// equal, an edited route file shows the first difference, a redacted recording compares params by type, and
/// the user's own bus is never used.
@Suite("navctl replay", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct NavctlReplayTests {
    /// Push, Send, a no-op, Undo, params, Revert, a reload that repairs, Apply after it: recorded by a real navd.
    static func recordSession(_ fixture: RecordingFixture) throws {
        let client = try fixture.client()
        _ = try client.send(.push("orange"))  // 2
        _ = try client.send(.push("yellow"))  // 3
        _ = try client.send(.send("next"))  // 4: green, from yellow
        _ = try client.send(.selectTab("rainbow"))  // a no-op: no revision
        _ = try client.send(.undo)  // 5
        _ = try client.send(.push("news-item", params: ["id": .int(7)]))  // 6
        _ = try client.send(.revert(to: 4))  // 7
        try fixture.writeRoutes("routes.yaml", yellowNeedsSigningIn)
        _ = try client.send(.reload)  // 8: reconcile, yellow and green repaired away
        _ = try client.send(.apply([.push("teal"), .selectTab("news")]))  // 9
        _ = try client.send(.present("modal", style: .sheet))  // 10
    }

    @Test func aRecordedSessionReplaysAllEqual() throws {
        let fixture = try RecordingFixture()
        try Self.recordSession(fixture)
        let changes = try fixture.changeCount()
        #expect(changes == 9)
        let recording = try fixture.export("session.json")
        try fixture.replay(recording).expectOutput("replayed \(changes) changes: all equal\n")
        // From a later revision: the start state is then a kept revision with history before it.
        let later = try fixture.export("later.json", "--from", "5")
        try fixture.replay(later).expectOutput("replayed 6 changes: all equal\n")
    }

    @Test func anEditedRouteFileShowsTheFirstDifference() throws {
        let fixture = try RecordingFixture()
        try Self.recordSession(fixture)
        let recording = try fixture.export("session.json")
        // Yellow's `next` now pushes teal: the Send at revision 4 is the first change that differs.
        let edited = try fixture.writeRoutes("edited.yaml") {
            $0.replacingOccurrences(of: "index: 2 }, on: { next: { push: green } }", with: "index: 2 }, on: { next: { push: teal } }")
        }
        let result = try fixture.replay(recording, "--routes", edited)
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.first == "first difference at revision 4 (change 3 of 9)", "\(result)")
        #expect(result.stdout.contains("request:  Send"), "\(result)")
        let differing = result.lines.filter { $0.hasPrefix("  * ") }
        #expect(differing.count == 1 && differing[0].contains("green") && differing[0].contains("teal"), "\(result)")
    }

    @Test func aStartStateThatNeedsRepairIsTheFirstDifference() throws {
        let fixture = try RecordingFixture()
        try Self.recordSession(fixture)
        // From revision 4 on: the start state (revision 3) is red > orange > yellow, which a graph where yellow
        // requires signing in repairs.
        let recording = try fixture.export("from4.json", "--from", "4")
        let strict = try fixture.writeRoutes("strict.yaml", yellowNeedsSigningIn)
        let result = try fixture.replay(recording, "--routes", strict)
        #expect(result.status == 1 && result.lines.first == "first difference at start", "\(result)")
        #expect(result.stdout.contains("needs repair under \(strict)"), "\(result)")
    }

    @Test func aRedactedRecordingReplaysEqualByType() throws {
        let fixture = try RecordingFixture()
        try Self.recordSession(fixture)
        let recording = try fixture.export("redacted.json", "--redact")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(!text.contains("\"id\": 7") && !text.contains("\"id\":7"))
        try fixture.replay(recording).expectOutput("replayed 9 changes: all equal\n")
    }

    @Test func theUsersSessionBusIsNeverUsed() throws {
        let fixture = try RecordingFixture()
        _ = try fixture.client().send(.push("orange"))
        let recording = try fixture.export("one.json")
        // The fixture's navd serves the bus given as the session bus: a replay that used it would change its tree.
        let before = try fixture.client().send(.getState)
        try fixture.replay(recording, sessionBus: fixture.bus.address).expectOutput("replayed 1 changes: all equal\n")
        try fixture.replay(recording).expectOutput("replayed 1 changes: all equal\n")
        #expect(try fixture.client().send(.getState) == before)
        #expect(try fixture.changeCount() == 1)
    }
}
