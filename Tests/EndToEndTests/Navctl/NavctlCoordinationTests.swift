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
        let human = try fixture.navctl("send", "next")
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout == "2 send rainbow: red > orange (applied)\n")
        let json = try fixture.navctl("--json", "send", "next", "--expect", "2")
        #expect(json.status == 0, "\(json)")
        let document = try json.json()
        #expect(document.integer("revision") == 3)
        #expect(document.string("cause") == "send")
        #expect(document.string("outcome") == "applied")
        #expect(document.pathRoutes == ["red", "orange", "yellow"])
        let stale = try fixture.navctl("send", "next", "--expect", "2")
        #expect(stale.status == 1 && stale.stderr.contains("StaleRevision"), "\(stale)")
        let unhandled = try fixture.navctl("send", "no-such-event")
        #expect(unhandled.status == 1 && unhandled.stderr.contains("UnhandledEvent"), "\(unhandled)")
        #expect(unhandled.stdout.isEmpty)
        #expect(try fixture.client().state().revision == 3, "refusals change nothing")
        let usage = try fixture.navctl("send", "next", "novalue")
        #expect(usage.status == 2, "\(usage)")
        #expect(try fixture.navctl("send").status == 2)
    }

    @Test("send --source: an event from a screen still on the path acts; from a popped one, StaleSource")
    func sendFromSource() throws {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        let red = try #require(try client.state().top?.id)
        let orange = try client.push("orange").id
        _ = try client.pop()
        let late = try fixture.navctl("send", "next", "--source", orange)
        #expect(late.status == 1 && late.stderr.contains("StaleSource"), "\(late)")
        let fromRed = try fixture.navctl("send", "next", "--source", red)
        #expect(fromRed.status == 0, "\(fromRed)")
        #expect(fromRed.stdout == "4 send rainbow: red > orange (applied)\n")
    }

    @Test("event params are typed by their text, or by key:TYPE=value")
    func sendParams() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("tab", "news").status == 0)
        #expect(try fixture.navctl("send", "call").stdout == "3 send news: news-list > call-progress (applied)\n")
        // call-error's message is a string: 404 would be sent as an int and refused, unless typed.
        let asInt = try fixture.navctl("send", "failed", "message=404")
        #expect(asInt.status == 1 && asInt.stderr.contains("InvalidParams"), "\(asInt)")
        let typed = try fixture.navctl("--json", "send", "failed", "message:string=404")
        #expect(typed.status == 0, "\(typed)")
        guard case .array(let path)? = try typed.json()["path"] else { Issue.record("no path"); return }
        #expect(path.last?.string("route") == "call-error")
        #expect(path.last?["params"] == .object([("message", .string("404"))]))
    }

    @Test("the login story: account redirected to the login cover, forgot-password and back, succeeded resumes")
    func loginStory() throws {
        let fixture = try NavdOnPrivateBus()
        #expect(try fixture.navctl("tab", "profile").status == 0)
        #expect(try fixture.navctl("send", "account").stdout == "3 send profile: profile > [cover] login (redirected)\n")
        let flows = try fixture.navctl("flows")
        #expect(flows.status == 0, "\(flows)")
        #expect(flows.lines.count == 1 && flows.stdout.contains("auth") && flows.stdout.contains("from login ("), "\(flows)")
        #expect(try fixture.navctl("send", "forgot-password").stdout
            == "4 send profile: profile > [cover] login > forgot-password (applied)\n")
        #expect(try fixture.navctl("send", "sent").stdout == "5 send profile: profile > [cover] login (applied)\n")
        #expect(try fixture.navctl("send", "succeeded").stdout == "6 send profile: profile > account (resumed)\n")
        #expect(try fixture.navctl("facts").stdout == "signed-in=true\n")
        #expect(try fixture.navctl("send", "logout").stdout == "7 send profile: profile (applied)\n")
        #expect(try fixture.navctl("flows").stdout.isEmpty)
    }

    @Test("start and finish: the flow's first screen comes and goes; NotInFlow, UnknownFlow, UnknownOutput exit 1")
    func startAndFinish() throws {
        let fixture = try NavdOnPrivateBus()
        let started = try fixture.navctl("start", "auth")
        #expect(started.status == 0, "\(started)")
        #expect(started.stdout.hasPrefix("2 start rainbow: red > [cover] login (flow "), "\(started)")
        let flows = try fixture.navctl("--json", "flows")
        guard case .array(let items) = try flows.json(), let flow = items.first else { Issue.record("\(flows)"); return }
        #expect(items.count == 1)
        #expect(flow.string("flow") == "auth")
        #expect(flow["params"] == .object([]))
        let top = try #require(try fixture.client().state().top)
        #expect(flow.string("firstScreen") == top.id)
        let unknownOutput = try fixture.navctl("finish", "nonsense")
        #expect(unknownOutput.status == 1 && unknownOutput.stderr.contains("UnknownOutput"), "\(unknownOutput)")
        let finished = try fixture.navctl("--json", "finish", "cancelled")
        #expect(finished.status == 0, "\(finished)")
        #expect(try finished.json().pathRoutes == ["red"])
        #expect(try finished.json().string("cause") == "finish")
        let notInFlow = try fixture.navctl("finish", "cancelled")
        #expect(notInFlow.status == 1 && notInFlow.stderr.contains("NotInFlow"), "\(notInFlow)")
        let json = try fixture.navctl("--json", "start", "auth")
        #expect(json.status == 0, "\(json)")
        #expect(try json.json().string("flowId")?.isEmpty == false)
        let unknownFlow = try fixture.navctl("start", "no-such-flow")
        #expect(unknownFlow.status == 1 && unknownFlow.stderr.contains("UnknownFlow"), "\(unknownFlow)")
        #expect(try fixture.navctl("start").status == 2)
    }

    @Test("facts lists and sets, typed by the fact's current value; UnknownFact exits 1")
    func facts() throws {
        let fixture = try NavdOnPrivateBus()
        let list = try fixture.navctl("facts")
        #expect(list.status == 0 && list.stdout == "signed-in=false\n", "\(list)")
        #expect(try fixture.navctl("--json", "facts").json() == .object([("signed-in", .bool(false))]))
        let set = try fixture.navctl("facts", "signed-in=true")
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout == "2 setfacts rainbow: red\n")
        #expect(try fixture.client().facts() == ["signed-in": .bool(true)])
        let json = try fixture.navctl("--json", "facts", "signed-in=false")
        #expect(try json.json().string("cause") == "setfacts")
        #expect(try json.json().integer("revision") == 3)
        let unknown = try fixture.navctl("facts", "no-such-fact=1")
        #expect(unknown.status == 1 && unknown.stderr.contains("UnknownFact"), "\(unknown)")
        let wrongType = try fixture.navctl("facts", "signed-in=maybe")
        #expect(wrongType.status == 1 && wrongType.stderr.contains("InvalidParams"), "\(wrongType)")
        #expect(try fixture.navctl("facts", "signed-in").status == 2)
        #expect(try fixture.navctl("facts", "--names").stdout == "signed-in=\n")
    }

    @Test("events lists the top screen's events with their scopes; --source a stale id exits 1")
    func events() throws {
        let fixture = try NavdOnPrivateBus()
        let human = try fixture.navctl("events")
        #expect(human.status == 0, "\(human)")
        #expect(human.lines.first == "next        route", "\(human)")
        #expect(Set(human.lines.dropFirst().map { $0.split(separator: " ").map(String.init) })
            == [["root", "tab"], ["end", "tab"], ["show-modal", "tab"]])
        let json = try fixture.navctl("--json", "events")
        guard case .array(let items) = try json.json() else { Issue.record("\(json)"); return }
        #expect(items.first == .object([("event", .string("next")), ("scope", .string("route"))]))
        #expect(items.count == 4)
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
        let link = try fixture.navctl("--json", "resolve", "link", "end")
        #expect(link.status == 0, "\(link)")
        let document = try link.json()
        #expect(document.string("outcome") == "applied")
        #expect(document.string("cause") == "resolve")
        #expect(document.pathRoutes == ["red", "purple"])
        guard case .array(let trace)? = document["trace"] else { Issue.record("no trace: \(link)"); return }
        #expect(!trace.isEmpty)
        #expect(try fixture.client().state().revision == 1, "a dry run changes nothing")
        let unhandled = try fixture.navctl("resolve", "event", "no-such-event")
        #expect(unhandled.status == 1 && unhandled.stderr.contains("UnhandledEvent"), "\(unhandled)")
        #expect(try fixture.navctl("resolve", "frobnicate", "next").status == 2)
        #expect(try fixture.navctl("resolve", "link", "end", "a=b").status == 2)
    }
}
