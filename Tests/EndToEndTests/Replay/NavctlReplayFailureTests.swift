import DBus
import Foundation
import NavdClient
import TestSupport
import Testing

/// What navctl replay and navd --from-recording refuse (exit 2, the file and the problem named), and a
/// replaying navd that dies or hangs, or a navctl stopped by a signal: reported, and nothing left running
/// (checked by pid).
@Suite("navctl replay: bad input and failures", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct NavctlReplayFailureTests {
    /// A recording of a few changes, its text and its path.
    static func recording(_ fixture: RecordingFixture) throws -> (path: String, text: String) {
        let client = try fixture.client()
        _ = try client.send(.push("orange"))
        _ = try client.send(.push("yellow"))
        _ = try client.send(.pop)
        let path = try fixture.export("good.json")
        return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Writes `text` to `FOLDER/NAME` and replays it: exit 2, nothing on stdout, stderr naming the file and
    /// containing `problem`.
    func expectRefused(
        _ fixture: RecordingFixture, _ name: String, _ text: String, _ problem: String, routes: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = fixture.folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try fixture.replay(routes.map { [path, "--routes", $0] } ?? [path])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(routes ?? path) && result.stderr.contains(problem), "\(result)", sourceLocation: sourceLocation)
        #expect(processes(withCommandLineContaining: path).isEmpty, "a process of the refused replay is left", sourceLocation: sourceLocation)
    }

    @Test func badRecordingsExit2NamingTheFileAndTheProblem() throws {
        let fixture = try RecordingFixture()
        let good = try Self.recording(fixture)
        try expectRefused(fixture, "not-json.json", "this is not JSON\n", "JSON")
        try expectRefused(fixture, "truncated.json", String(good.text.prefix(good.text.count / 2)), "ends early")
        let version = good.text.replacingOccurrences(of: #""navd-recording"\s*:\s*1"#, with: #""navd-recording": 99"#, options: .regularExpression)
        #expect(version != good.text)
        try expectRefused(fixture, "version.json", version, "99")
        let unknownMethod = good.text.replacingOccurrences(of: #""method"\s*:\s*"Pop""#, with: #""method": "Frobnicate""#, options: .regularExpression)
        #expect(unknownMethod != good.text)
        try expectRefused(fixture, "method.json", unknownMethod, "Frobnicate")
        let wrongType = good.text.replacingOccurrences(of: #""route"\s*:\s*"orange""#, with: #""route": 7"#, options: .regularExpression)
        #expect(wrongType != good.text)
        try expectRefused(fixture, "type.json", wrongType, "route")
        let missing = try fixture.replay(fixture.folder + "/nothing-here.json")
        #expect(missing.status == 2 && missing.stderr.contains("nothing-here.json"), "\(missing)")
    }

    @Test func aRouteFileThatDoesNotLoadExits2NamingIt() throws {
        let fixture = try RecordingFixture()
        let good = try Self.recording(fixture)
        let broken = try fixture.writeRoutes("broken.yaml") { _ in "tabs: [\n" }
        try expectRefused(fixture, "good-copy.json", good.text, "not valid YAML", routes: broken)
    }

    @Test func navdTakesARecordingOnlyWhenEphemeral() throws {
        let fixture = try RecordingFixture()
        let good = try Self.recording(fixture)
        let durable = try ChildProcess.run(Products.url("navd"), ["--from-recording", good.path, "--address", fixture.bus.address])
        #expect(durable.status == 2 && durable.stderr.contains("--ephemeral"), "\(durable)")
        let notJSON = fixture.folder + "/not.json"
        try "{".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let bad = try ChildProcess.run(Products.url("navd"), ["--ephemeral", "--from-recording", notJSON, "--address", fixture.bus.address])
        #expect(bad.status == 2 && bad.stderr.contains(notJSON), "\(bad)")
    }

    /// A start state its recording's own graph would repair (here: screens of routes the graph does not have)
    /// is refused, not repaired: exit 2, naming the file and the misfit (Tests/Fuzz/recording).
    @Test func aStartStateItsGraphWouldRefuseExits2() throws {
        let fixture = try RecordingFixture()
        let good = try Self.recording(fixture)
        let routes = #""routes": {"source": "file", "path": "/crafted.yaml", "text": "root: other\nroutes:\n  other: {}\n"}"#
        let head = try #require(good.text.range(of: #""routes":"#))
        let tail = try #require(good.text.range(of: #","start":"#))
        let crafted = good.text.replacingCharacters(in: head.lowerBound..<tail.lowerBound, with: routes)
        let path = fixture.folder + "/crafted.json"
        try crafted.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(Products.url("navd"), ["--ephemeral", "--from-recording", path, "--address", fixture.bus.address])
        #expect(result.status == 2 && result.stderr.contains(path) && result.stderr.contains("does not fit its routes"), "\(result)")
    }

    /// A recording of 1,000 changes (Push and Pop), long enough that a replay is still under way when a test
    /// stops or kills its navd.
    static func longRecording(_ fixture: RecordingFixture) throws -> String {
        let client = try fixture.client()
        for _ in 0..<500 {
            _ = try client.send(.push("orange"))
            _ = try client.send(.pop)
        }
        return try fixture.export("long.json")
    }

    /// Starts `navctl replay RECORDING`; finds its navd (a child of navctl) and its private bus (by the folder
    /// in its command line); with `serving`, waits until navd owns its name there. Their pids.
    static func startReplay(_ recording: String, _ extra: [String] = [], serving: Bool) throws -> (navctl: ChildProcess, navd: pid_t, bus: pid_t) {
        let navctl = try ChildProcess(launching: Products.url("navctl"), arguments: ["replay", recording] + extra)
        guard let navd = eventually({ childProcesses(of: navctl.pid, named: "navd").first }),
              let bus = eventually({ processes(withCommandLineContaining: "navctl-replay-").first { $0 != navctl.pid && $0 != navd } })
        else {
            throw HarnessError("navctl replay started no navd or no bus: \(navctl.stderrText)")
        }
        if serving {
            let line = FileText.read("/proc/\(bus)/cmdline")?.split(separator: "\0").first { $0.hasPrefix("--config-file=") } ?? ""
            let folder = (String(line.dropFirst("--config-file=".count)) as NSString).deletingLastPathComponent
            let address = FileText.read(folder + "/launcher.out")?.split(separator: "\n").first.map(String.init) ?? ""
            let connection = try Connection(.address(address))
            defer { connection.close() }
            _ = eventually { (try? connection.nameOwner("org.navd.Navigator1")).flatMap { $0 } }
        }
        return (navctl, navd, bus)
    }

    @Test func aReplayingNavdThatDiesIsReportedAndNothingIsLeft() throws {
        let fixture = try RecordingFixture()
        _ = try Self.recording(fixture)
        let replay = try Self.startReplay(try Self.longRecording(fixture), serving: true)
        defer { kill(replay.navd, SIGKILL) }
        kill(replay.navd, SIGKILL)
        let status = replay.navctl.waitForExit(timeout: 30)
        #expect(status == 3, "\(replay.navctl.stderrText)")
        // Killed as soon as it owns its name: navctl may not have seen it serve yet.
        let said = replay.navctl.stderrText
        #expect(said.contains("the replaying navd died (exit status 137) during") || said.contains("navd exited with status 137 before serving"), "\(said)")
        #expect(ProcessExit.waitUntilExited(replay.navd, timeout: 5) && ProcessExit.waitUntilExited(replay.bus, timeout: 5))
    }

    @Test func aReplayingNavdThatHangsIsStoppedAndNothingIsLeft() throws {
        let fixture = try RecordingFixture()
        _ = try Self.recording(fixture)
        let replay = try Self.startReplay(try Self.longRecording(fixture), ["--timeout", "3"], serving: true)
        defer { kill(replay.navd, SIGKILL) }
        kill(replay.navd, SIGSTOP)
        let status = replay.navctl.waitForExit(timeout: 30)
        #expect(status == 3, "\(replay.navctl.stderrText)")
        #expect(replay.navctl.stderrText.contains("did not answer") && replay.navctl.stderrText.contains("within 3.0 s"), "\(replay.navctl.stderrText)")
        #expect(ProcessExit.waitUntilExited(replay.navd, timeout: 5) && ProcessExit.waitUntilExited(replay.bus, timeout: 5))
    }

    @Test func navctlStoppedBySIGTERMLeavesNothingRunning() throws {
        let fixture = try RecordingFixture()
        let long = try Self.longRecording(fixture)
        for signal in [SIGTERM, SIGINT] {
            let replay = try Self.startReplay(long, serving: false)
            defer { kill(replay.navd, SIGKILL) }
            kill(replay.navd, SIGSTOP)
            kill(replay.navctl.pid, signal)
            #expect(replay.navctl.waitForExit(timeout: 10) == 128 + signal)
            #expect(ProcessExit.waitUntilExited(replay.navd, timeout: 5) && ProcessExit.waitUntilExited(replay.bus, timeout: 5))
        }
    }
}
