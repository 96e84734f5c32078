import Foundation
import NavdClient
import TestSupport
import Testing

/// navctl's coordination commands against a real navd (demo graph, fresh `--ephemeral` tree at revision 1,
/// `rainbow: red`): each command's human output, its JSON document, and its exit status (0; 1 when navd refuses,
/// the error on stderr; 2 for a usage error, nothing sent).
@Suite("navctl sends events, runs flows, sets facts", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(1)))
struct NavctlCoordinationTests {
    @Test("send prints the change and the outcome; --json adds \"outcome\"; refusals exit 1, usage errors 2")
    func send() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("send", "next").expectOutput("2 send rainbow: red > orange (applied)\n")
        try fixture.navctl("--json", "send", "next", "--expect", "2").expectJSON("""
            {"revision": 3, "cause": "send", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#7", "route": "orange", "presentation": "push", "params": {}},
                      {"id": "#8", "route": "yellow", "presentation": "push", "params": {}}],
             "top": "yellow", "depth": 3, "outcome": "applied"}
            """)
        let stale = try fixture.navctl("send", "next", "--expect", "2")
        #expect(stale.status == 1 && stale.stderr.contains("StaleRevision"), "\(stale)")
        let unhandled = try fixture.navctl("send", "no-such-event")
        #expect(unhandled.status == 1 && unhandled.stderr.contains("UnhandledEvent"), "\(unhandled)")
        #expect(unhandled.stdout.isEmpty)
        #expect(try fixture.client().send(.getState).revision == 3, "refusals change nothing")
        let usage = try fixture.navctl("send", "next", "novalue")
        #expect(usage.status == 2, "\(usage)")
        #expect(try fixture.navctl("send").status == 2)
    }

    @Test("send --source: an event from a screen still on the path acts; from a popped one, StaleSource")
    func sendFromSource() throws {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        let red = try #require(try client.send(.getState).top?.id)
        let orange = try client.send(.push("orange")).id
        _ = try client.send(.pop)
        let late = try fixture.navctl("send", "next", "--source", orange)
        #expect(late.status == 1 && late.stderr.contains("StaleSource"), "\(late)")
        try fixture.navctl("send", "next", "--source", red).expectOutput("4 send rainbow: red > orange (applied)\n")
    }

    @Test("event params are typed by their text, or by key:TYPE=value")
    func sendParams() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("tab", "news").status == 0)
        try fixture.navctl("send", "call").expectOutput("3 send news: news-list > call-progress (applied)\n")
        // call-error's message is a string: 404 would be sent as an int and refused, unless typed.
        let asInt = try fixture.navctl("send", "failed", "message=404")
        #expect(asInt.status == 1 && asInt.stderr.contains("InvalidParams"), "\(asInt)")
        // call-error replaces call-progress (the demo's `failed` handler).
        try fixture.navctl("--json", "send", "failed", "message:string=404").expectJSON("""
            {"revision": 4, "cause": "send", "tab": "news",
             "path": [{"id": "#4", "route": "news-list", "presentation": "root", "params": {}},
                      {"id": "#8", "route": "call-error", "presentation": "push", "params": {"message": "404"}}],
             "top": "call-error", "depth": 2, "outcome": "applied"}
            """)
    }

    @Test("the login story: account redirected to the login cover, forgot-password and back, succeeded resumes")
    func loginStory() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("tab", "profile").status == 0)
        try fixture.navctl("send", "account").expectOutput("3 send profile: profile > [cover] login (redirected)\n")
        let flows = try fixture.navctl("flows")
        #expect(flows.status == 0, "\(flows)")
        #expect(flows.lines.count == 1 && flows.stdout.contains("auth") && flows.stdout.contains("from login ("), "\(flows)")
        #expect(try fixture.navctl("send", "forgot-password").stdout
            == "4 send profile: profile > [cover] login > forgot-password (applied)\n")
        try fixture.navctl("send", "sent").expectOutput("5 send profile: profile > [cover] login (applied)\n")
        try fixture.navctl("send", "succeeded").expectOutput("6 send profile: profile > account (resumed)\n")
        try fixture.navctl("facts").expectOutput("signed-in=true\n")
        try fixture.navctl("send", "logout").expectOutput("7 send profile: profile (applied)\n")
        #expect(try fixture.navctl("flows").stdout.isEmpty)
    }

    @Test("start and finish: the flow's first screen comes and goes; NotInFlow, UnknownFlow, UnknownOutput exit 1")
    func startAndFinish() throws {
        let fixture = try NavdOnPrivateBus()
        let started = try fixture.navctl("start", "auth")
        #expect(started.status == 0, "\(started)")
        #expect(started.stdout.hasPrefix("2 start rainbow: red > [cover] login (flow "), "\(started)")
        let top = try #require(try fixture.client().send(.getState).top)
        #expect(top.id == "#7" && top.route == "login")
        try fixture.navctl("--json", "flows").expectJSON("""
            [{"id": "#8", "flow": "auth", "firstScreen": "#7", "params": {}}]
            """)
        let unknownOutput = try fixture.navctl("finish", "nonsense")
        #expect(unknownOutput.status == 1 && unknownOutput.stderr.contains("UnknownOutput"), "\(unknownOutput)")
        try fixture.navctl("--json", "finish", "cancelled").expectJSON("""
            {"revision": 3, "cause": "finish", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}
            """)
        let notInFlow = try fixture.navctl("finish", "cancelled")
        #expect(notInFlow.status == 1 && notInFlow.stderr.contains("NotInFlow"), "\(notInFlow)")
        try fixture.navctl("--json", "start", "auth").expectJSON("""
            {"revision": 4, "cause": "start", "tab": "rainbow",
             "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}, {"id": "#9", "route": "login", "presentation": "cover", "params": {}}],
             "top": "login", "depth": 2, "flowId": "#10"}
            """)
        let unknownFlow = try fixture.navctl("start", "no-such-flow")
        #expect(unknownFlow.status == 1 && unknownFlow.stderr.contains("UnknownFlow"), "\(unknownFlow)")
        #expect(try fixture.navctl("start").status == 2)
    }

    @Test("facts lists and sets, typed by the fact's current value; UnknownFact exits 1")
    func facts() throws {
        let fixture = try NavdOnPrivateBus()
        try fixture.navctl("facts").expectOutput("signed-in=false\n")
        try fixture.navctl("--json", "facts").expectJSON(#"{"signed-in": false}"#)
        try fixture.navctl("facts", "signed-in=true").expectOutput("2 setfacts rainbow: red\n")
        #expect(try fixture.client().send(.facts) == ["signed-in": .bool(true)])
        try fixture.navctl("--json", "facts", "signed-in=false").expectJSON("""
            {"revision": 3, "cause": "setfacts", "tab": "rainbow", "path": [{"id": "#2", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}
            """)
        let unknown = try fixture.navctl("facts", "no-such-fact=1")
        #expect(unknown.status == 1 && unknown.stderr.contains("UnknownFact"), "\(unknown)")
        let wrongType = try fixture.navctl("facts", "signed-in=maybe")
        #expect(wrongType.status == 1 && wrongType.stderr.contains("InvalidParams"), "\(wrongType)")
        #expect(try fixture.navctl("facts", "signed-in").status == 2)
        try fixture.navctl("facts", "--names").expectOutput("signed-in=\n")
    }

    @Test("events lists the top screen's events with their scopes; --source a stale id exits 1")
    func events() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("events")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.first == "next        route", "\(human)")
        #expect(Set(human.lines.dropFirst().map { $0.split(separator: " ").map(String.init) })
            == [["root", "tab"], ["end", "tab"], ["show-modal", "tab"]])
        try fixture.navctl("--json", "events").expectJSON("""
            [{"event": "next", "scope": "route"}, {"event": "root", "scope": "tab"},
             {"event": "end", "scope": "tab"}, {"event": "show-modal", "scope": "tab"}]
            """)
        #expect(try fixture.navctl("events", "--names").lines.first == "next")
        let stale = try fixture.navctl("events", "--source", "no-such-screen")
        #expect(stale.status == 1 && stale.stderr.contains("StaleSource"), "\(stale)")
    }

    @Test("resolve prints the would-be path and the trace and changes nothing; refusals exit 1, usage 2")
    func resolve() throws {
        let fixture = try NavdOnPrivateBus()
        let event = try fixture.navctl("resolve", "event", "next")
        #expect(event.status == 0, "\(event)")
        #expect(event.lines.first == "2 resolve rainbow: red > orange (applied)", "\(event)")
        #expect(event.lines.count > 1 && event.lines.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(event)")
        // The would-be tree: a link builds its stack anew, so its ids are new.
        try fixture.navctl("--json", "resolve", "link", "end").expectJSON("""
            {"revision": 2, "cause": "resolve", "tab": "rainbow",
             "path": [{"id": "#7", "route": "red", "presentation": "root", "params": {}},
                      {"id": "#8", "route": "purple", "presentation": "push", "params": {}}],
             "top": "purple", "depth": 2, "outcome": "applied", "trace": ["open 'end'"]}
            """)
        #expect(try fixture.client().send(.getState).revision == 1, "a dry run changes nothing")
        let unhandled = try fixture.navctl("resolve", "event", "no-such-event")
        #expect(unhandled.status == 1 && unhandled.stderr.contains("UnhandledEvent"), "\(unhandled)")
        #expect(try fixture.navctl("resolve", "frobnicate", "next").status == 2)
        #expect(try fixture.navctl("resolve", "link", "end", "a=b").status == 2)
    }
}
