import DBus
import Foundation
import TestSupport
import Testing

/// The fixtures later test targets rely on.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TestSupportTests {
    @Test(.enabled(if: PrivateBus.isAvailable, busUnavailableReason))
    func privateBusesActivateNothingAndTakeExtraConfiguration() throws {
        let bus = try PrivateBus(extraConfiguration: #"<limit name="max_match_rules_per_connection">7</limit>"#)
        let configuration = try String(contentsOfFile: bus.configurationPath, encoding: .utf8)
        #expect(configuration.contains("max_match_rules_per_connection"))
        #expect(!configuration.contains("servicedir"))
        let connection = try Connection(.address(bus.address))
        let start = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "StartServiceByName")
        try start.append([.string("org.example.Navigator1"), .uint32(0)])
        let error = try #require(throws: DBusError.self) { try connection.call(start) }
        #expect(error.name == DBusErrorName.serviceUnknown)
        for index in 0..<7 { try connection.addMatch(MatchRule.signals(member: "M\(index)")) }
        #expect(throws: DBusError.self, "the extra limit is in force") { try connection.addMatch(MatchRule.signals(member: "M7")) }
        let pid = bus.pid
        bus.stop()
        #expect(ProcessExit.hasExited(pid))
        #expect(!bus.isRunning)
    }

    @Test func childProcessesCaptureOutputAndObeySignals() throws {
        let echo = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(echo.status == 3 && echo.stdout == "out\n" && echo.stderr == "err\n")

        let sleeper = try ChildProcess(
            launching: "/bin/sh", arguments: ["-c", "echo ready $NAVD_TEST_VALUE; exec sleep 30"],
            environment: ["NAVD_TEST_VALUE": "42"])
        #expect(sleeper.waitForOutput(containing: "ready 42", timeout: 10))
        #expect(sleeper.waitForExit(timeout: 0.1) == nil)
        sleeper.signal(SIGTERM)
        #expect(sleeper.waitForExit(timeout: 10) == 128 + SIGTERM, "SIGTERM reaches the child")

        let reader = try ChildProcess.run("/bin/cat", [], standardInput: "line\n")
        #expect(reader.stdout == "line\n")
        let directory = try ChildProcess.run("/bin/pwd", [], timeout: 10)
        #expect(directory.status == 0)
        let elsewhere = try ChildProcess(launching: "/bin/pwd", currentDirectory: "/tmp")
        #expect(elsewhere.waitForExit(timeout: 10) == 0)
        #expect(elsewhere.stdoutText == "/tmp\n")
    }

    @Test func productsAreFoundNextToTheTestBinary() {
        let directory = Products.directory
        #expect(FileManager.default.fileExists(atPath: directory))
        #expect(Products.url("navd") == directory + "/navd")
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(contents.contains { $0.hasSuffix("PackageTests.xctest") }, "\(directory)")
    }
}
