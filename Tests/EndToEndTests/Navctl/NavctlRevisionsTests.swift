import Foundation
import NavdClient
import NavigatorProtocol
import TestSupport
import Testing

/// navctl show, diff and revert, Apply's revert op, and GetTreeAt and Revert through busctl and gdbus (clients
/// nobody here wrote), against a real navd; every bad input exits with its error and changes nothing.
@Suite("navctl over the kept revisions", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct NavctlRevisionsTests {
    @Test func showDrawsAKeptRevisionAsTreeDrawsTheCurrentOne() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        let tree = try fixture.navctl("tree"), treeJSON = try fixture.navctl("tree", "--json")
        _ = try fixture.client().send(.present("modal", style: .sheet))
        try fixture.navctl("show", "2").expectOutput(tree.stdout)
        try fixture.navctl("show", "2", "--json").expectJSON(treeJSON.stdout)
        try fixture.navctl("show", "0").expectOutput(try fixture.navctl("tree").stdout)
    }

    @Test func diffListsScreensTabFactsAndFlows() throws {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        _ = try client.send(.push("orange"))  // 2: #7
        _ = try client.send(.present("modal", style: .sheet))  // 3: #8
        _ = try client.send(.selectTab("profile"))  // 4
        _ = try client.send(.start("auth"))  // 5: login #9, flow #10
        _ = try client.send(.setFacts(["signed-in": .bool(true)]))  // 6
        try fixture.navctl("diff", "3", "4").expectOutput("revision 3 -> 4\ntab rainbow -> profile\n")
        try fixture.navctl("diff", "2", "6").expectOutput("""
            revision 2 -> 6
            + modal  (#8)
            + login  (#9)
            tab rainbow -> profile
            fact signed-in: false -> true
            flow + auth  (#10)

            """)
        try fixture.navctl("diff", "6", "6").expectOutput("revision 6 -> 6\nno difference\n")
        try fixture.navctl("diff", "6", "1", "--json").expectJSON("""
            {"from": 6, "to": 1, "removed": [{"id": "#7", "route": "orange"}, {"id": "#8", "route": "modal"},
             {"id": "#9", "route": "login"}], "added": [], "tab": {"from": "profile", "to": "rainbow"},
             "facts": {"signed-in": {"from": true, "to": false}}, "flows": {"removed": [{"id": "#10", "flow": "auth"}], "added": []}}
            """)
    }

    @Test func revertFromNavctlAndFromAnApplyBatch() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        _ = try fixture.client().send(.push("yellow"))
        try fixture.navctl("revert", "2", "--expect", "3").expectOutput("4 revert rainbow: red > orange\n")
        try fixture.navctl("revert", "2").expectOutput("4 revert rainbow: red > orange\n")  // a no-op: the current revision
        try fixture.navctl("apply", "-", standardInput: #"[{"op": "revert", "revision": 3}, {"op": "push", "route": "green"}]"#)
            .expectOutput("5 apply rainbow: red > orange > yellow > green\n")
        try fixture.navctl("undo").expectOutput("6 undo rainbow: red > orange\n")
        #expect(try fixture.client().send(.history(limit: 3)).map(\.cause) == ["undo", "apply", "revert"])
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        let before = try fixture.navctl("tree", "--json").stdout
        func refused(_ result: CommandResult, _ name: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(result.status == 1 && result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stderr == "navctl: \(message) [\(Navigator.errorPrefix)\(name)]\n", "\(result)", sourceLocation: sourceLocation)
        }
        let notKept = "revision 5 is not kept: this navigator keeps revisions 1 to 2"
        refused(try fixture.navctl("show", "5"), "RevisionNotKept", notKept)
        refused(try fixture.navctl("diff", "1", "5"), "RevisionNotKept", notKept)
        refused(try fixture.navctl("revert", "5"), "RevisionNotKept", notKept)
        refused(try fixture.navctl("revert", "5", "--expect", "1"), "RevisionNotKept", notKept)
        refused(try fixture.navctl("revert", "1", "--expect", "1"), "StaleRevision",
                "expected revision 1, but the tree is at revision 2; read the state again and retry")
        refused(try fixture.navctl("apply", "-", standardInput: #"[{"op": "revert", "revision": 5}]"#), "RevisionNotKept", "op 0: \(notKept)")
        let usage = try fixture.navctl("show", "x")
        #expect(usage.status == 2 && usage.stdout.isEmpty, "\(usage)")
        let badBatch = try fixture.navctl("apply", "-", standardInput: #"[{"op": "revert", "revision": "1"}]"#)
        #expect(badBatch.status == 2 && badBatch.stderr.contains("revision"), "\(badBatch)")
        #expect(try fixture.navctl("tree", "--json").stdout == before)
    }

    @Test func busctlAndGdbusReadAndRevert() throws {
        let fixture = try NavdOnPrivateBus()
        _ = try fixture.client().send(.push("orange"))
        let call = ["--address=\(fixture.bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName]
        let read = try ChildProcess.run("/usr/bin/busctl", call + ["GetTreeAt", "t", "1"], timeout: 20)
        #expect(read.status == 0 && read.stdout.hasPrefix("tsa(ssssa{sv})a{sv}a(sssa{sv}) 1 \"rainbow\" 6 \"#1\""), "\(read)")
        let notKept = try ChildProcess.run("/usr/bin/busctl", call + ["GetTreeAt", "t", "7"], timeout: 20)
        #expect(notKept.status != 0 && notKept.stderr.contains("revision 7 is not kept: this navigator keeps revisions 1 to 2"), "\(notKept)")
        let revert = try ChildProcess.run("/usr/bin/busctl", call + ["Revert", "tt", "1", "2"], timeout: 20)
        #expect(revert.status == 0 && revert.stdout == "t 3\n", "\(revert)")
        let gdbus = ["call", "--address", fixture.bus.address, "--dest", Navigator.busName, "--object-path",
                     Navigator.objectPath.rawValue, "--method"]
        // gdbus checks the signature itself before sending; dbus-send sends what it is given.
        let wrong = try ChildProcess.run("/usr/bin/dbus-send", [
            "--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(Navigator.busName)", Navigator.objectPath.rawValue,
            "\(Navigator.interfaceName).GetTreeAt", "string:1"], timeout: 20)
        #expect(wrong.status != 0 && wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrong)")
        let stale = try ChildProcess.run("/usr/bin/gdbus", gdbus + ["\(Navigator.interfaceName).Revert", "uint64 2", "uint64 2"], timeout: 20)
        #expect(stale.status != 0 && stale.stderr.contains("StaleRevision"), "\(stale)")
        let gdbusRead = try ChildProcess.run("/usr/bin/gdbus", gdbus + ["\(Navigator.interfaceName).GetTreeAt", "uint64 2"], timeout: 20)
        #expect(gdbusRead.status == 0 && gdbusRead.stdout.hasPrefix("(uint64 2, 'rainbow', [('#1', '', 'tab', 'rainbow', @a{sv} {})"), "\(gdbusRead)")
        #expect(try fixture.client().send(.getState).revision == 3)
    }
}
