import Foundation
import NavdClient
import TestSupport
import Testing

/// Any caller can put escape sequences into what navd holds (a param, a fact, a flow's params) or says
/// (a refusal naming the route asked for), and a route file can put them into titles and hints. navctl
/// showed them raw: `navctl tree` cleared the screen and set the terminal's title. Every command now shows
/// them escaped (`\e[2J`), and `--json` as JSON escapes them (`\u001b`).
@Suite("nothing from the bus reaches navctl's terminal", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(2)))
struct NavctlTerminalSafetyTests {
    /// Whether `text` holds a scalar a terminal acts on, other than the line breaks between lines.
    static func holdsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && $0.isTerminalControl }
    }

    @Test("state, tree and a refusal of navd show the escape sequences escaped")
    func stateTreeAndRefusal() throws {
        let fixture = try NavdOnPrivateBus.withHostileParam()
        let tree = try fixture.navctl("tree")
        #expect(tree.status == 0 && !Self.holdsControls(tree.stdout), "\(tree)")
        #expect(tree.stdout.contains("call-error message=\(HostileText.shown)  (#"), "\(tree)")
        let state = try fixture.navctl("push", "call-error", "message=\(HostileText.raw)")
        #expect(state.status == 0 && !Self.holdsControls(state.stdout), "\(state)")
        let json = try fixture.navctl("tree", "--json")
        #expect(!Self.holdsControls(json.stdout) && json.stdout.contains(#"\u001b[2J\u001b]0;pwned\u0007\u009b1m"#), "\(json)")
        guard case .array(let nodes)? = try json.json()["nodes"] else { Issue.record("no nodes: \(json)"); return }
        #expect(nodes.contains { $0["params"]?["message"] == .string(HostileText.raw) }, "JSON keeps the text as it was")
        let refusal = try fixture.navctl("push", "x\(HostileText.raw)")
        #expect(refusal.status == 1 && !Self.holdsControls(refusal.stderr), "\(refusal)")
        #expect(refusal.stderr.contains(HostileText.shown), "\(refusal)")
    }

    @Test("shell completion offers names escaped, whoever answers on navd's name")
    func completions() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try NavwatchScriptedNavigator(
            bus: bus, state: NavwatchScriptedNavigator.rainbow(1), tabs: ["rainbow", "evil\(HostileText.raw)"])
        defer { peer.stop() }
        let words = ["navctl", "--address", bus.address, "tab", ""]
        let result = try ChildProcess.run(
            Products.url("navctl"), ["---completion", "tab", "--", "positional@0", "\(words.count - 1)", "0"] + words,
            timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["rainbow", "evil\(HostileText.shown)"], "\(result.stdout.debugDescription)")
        let tabs = try bus.navctl("tabs")
        #expect(tabs.lines == ["rainbow", "evil\(HostileText.shown)"], "\(tabs)")
    }

    @Test("every reader shows a route file's and the callers' text escaped")
    func everyCommand() throws {
        let directory = TemporaryDirectory.make("navctl-terminal-safety")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory + "/routes.yaml"
        try #"""
            root: home
            on: { wave: { push: note, params: { text: $event.text } } }
            routes:
              home:
                title: "Home \e[2J"
                hints: { color: "red\e]0;pwned\a" }
              note: { title: Note, params: { text: string }, presentations: [push, sheet] }
            facts:
              motto: { type: string, default: calm }
            flows:
              edit: { start: note, presentation: sheet, params: { text: string }, outputs: { done: {} } }
            """#.write(toFile: file, atomically: true, encoding: .utf8)
        let bus = try PrivateBus()
        defer { bus.stop() }
        let navd = try NavdProcess.started(bus: bus, extraArguments: ["--routes", file])
        defer { navd.stop() }
        let client = try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        _ = try client.send(.setFacts(["motto": .string(HostileText.raw)]))
        _ = try client.send(.start("edit", params: ["text": .string(HostileText.raw)]))
        let commands: [[String]] = [
            ["state"], ["tree"], ["routes"], ["history"], ["flows"], ["events"], ["facts"], ["status"], ["apps"],
            ["resolve", "event", "wave", "text=\(HostileText.raw)"], ["send", "wave", "text=\(HostileText.raw)"],
            ["routes", "--names"], ["facts", "--names"], ["flows", "--names"], ["events", "--names"],
        ]
        for arguments in commands {
            for json in [false, true] {
                let result = try bus.navctl(arguments + (json ? ["--json"] : []))
                #expect(result.status == 0, "\(arguments): \(result)")
                #expect(!Self.holdsControls(result.stdout) && !Self.holdsControls(result.stderr), "\(arguments): \(result)")
            }
        }
        #expect(try bus.navctl("routes").stdout.contains(#"Home \e[2J"#))
        #expect(try bus.navctl("facts").stdout.contains("motto=\(HostileText.shown)"))
        #expect(try bus.navctl("flows").stdout.contains(HostileText.shown))
    }
}
