import Foundation
import Glibc
import NavdClient
import TestSupport
import Testing

/// The Cockpit page (`cockpit/`, docs/cockpit.md) in headless Chromium through Selenium, served by a
/// real cockpit-ws and cockpit-bridge from the checkout, against a real navd on a private bus: one
/// cockpit-ws and one browser for the whole run. `Tests/Scripts/cockpit-browser-test.py` drives the
/// page and reports each check as a line; every check of the issue's list must be there and pass.
/// The figures it measures (latency, render times, bytes) are printed, never asserted.
@Suite("the Cockpit page", .timeLimit(.minutes(4)))
struct CockpitPageTests {
    /// The checks the script must report, each passed.
    static let checks = [
        "tree equals GetTree", "a navctl push appears", "clicking an event button changes navd's state",
        "Back pops and is labelled with BackTarget", "Back is disabled at the root", "the timeline names navctl as the caller",
        "Show draws GetTreeAt's tree", "two ticked show a diff", "Revert asks first, then reverts", "a StaleRevision is shown, not fatal",
        "Export downloads a recording navctl replay replays", "Export (redacted) downloads a recording navctl replay replays",
        "a hostile param is shown as text", "navd killed and restarted is followed again",
        "the page works on the system bus and says so", "and on the session bus, saying so",
    ]
    static let denied = "a navigator the user may not read is shown as not readable"

    @Test func thePackageIsPlainFilesWithoutInlineScripts() throws {
        let folder = CockpitPage.repository + "/cockpit"
        let html = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        #expect(html.contains("<script src=\"../base1/cockpit.js\"></script>"))
        let scripts = html.components(separatedBy: "<script").dropFirst()
        #expect(scripts.count == 2 && scripts.allSatisfy { $0.hasPrefix(" src=") || $0.hasPrefix(" type=\"module\" src=") },
                "Cockpit's Content-Security-Policy refuses inline scripts")
        let manifest = try JSONValue.parse(String(contentsOfFile: folder + "/manifest.json", encoding: .utf8))
        #expect(manifest["tools"]?["index"] != nil)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".js") {
            let source = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
                #expect(!source.contains(sink), "cockpit/\(file) uses \(sink): navd's strings go in as text only")
            }
            #expect(!source.contains("superuser"), "cockpit/\(file): the page calls as the logged-in user, never as administrator")
        }
    }

    @Test(.enabled(if: CockpitPage.available))
    func thePageShowsDrivesAndDebugsNavdInARealBrowser() throws {
        let stateDirectory = NavdProcess.temporaryStateDirectory()
        defer { TemporaryDirectory.remove(stateDirectory) }
        let session = try CockpitSession(stateDirectory: stateDirectory)
        try session.navctlSucceeding("push", "orange")
        let run = CockpitPage.artifacts + "/run-\(getpid())"
        try? FileManager.default.removeItem(atPath: run)
        let downloads = run + "/downloads"
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        var arguments = [CockpitPage.script, "--url", session.url, "--address", session.bus.address, "--navctl", Products.url("navctl"),
                         "--downloads", downloads, "--artifacts", run, "--repository", CockpitPage.repository]
        if session.asAnotherUser { arguments.append("--denied") } else { print("skipping the check '\(Self.denied)': \(CockpitPage.deniedMissingReason ?? "")") }
        let script = try ChildProcess(launching: CockpitPage.python, arguments: arguments, environment: session.bus.environment)
        defer { script.stop() }

        // The script's lines as they come; a restart request is answered by killing navd and starting it again.
        var results: [String: (ok: Bool, detail: String)] = [:]
        var read = 0
        let deadline = Date().addingTimeInterval(200)
        while true {
            let lines = script.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            while read < lines.count {
                let line = String(lines[read])
                read += 1
                guard let json = try? JSONValue.parse(line) else { continue }
                if let name = json.string("check") {
                    results[name] = (json["ok"] == .bool(true), json.string("detail") ?? "")
                } else if json.string("request") == "restart" {
                    session.navd.kill9()
                    try session.navd.start()
                    if !FileManager.default.createFile(atPath: run + "/restarted", contents: Data()) {
                        Issue.record("could not write \(run)/restarted: the page waits for it")
                    }
                } else if json.string("figure") != nil {
                    print("cockpit page figure: \(line)")
                }
            }
            if !script.isRunning || Date() >= deadline { break }
            usleep(50_000)
        }
        let status = script.waitForExit(timeout: 5)
        let expected = Self.checks + (session.asAnotherUser ? [Self.denied] : [])
        for name in expected {
            let result = results[name]
            #expect(result?.ok == true, "\(name): \(result?.detail ?? "not reported") (screenshots, console logs and downloads in \(run))")
        }
        if session.asAnotherUser {
            // Shown as not readable from GetManagedObjects alone: navd never had to refuse the page a call.
            let log = session.navd.earlierStderr + session.navd.stderr
            #expect(!log.contains("refused:"), "the page called a navigator it may not read: \(log.split(separator: "\n").filter { $0.contains("refused:") })")
        }
        for (name, result) in results where !result.ok && !expected.contains(name) {
            Issue.record("\(name): \(result.detail) (screenshots, console logs and downloads in \(run))")
        }
        #expect(status == 0, "the browser script ended with \(status.map(String.init) ?? "no exit"): \(script.stderrText.suffix(3000)); cockpit-ws: \(session.webServiceLog.suffix(1000)); artifacts in \(run)")
        if status == 0 && results.values.allSatisfy(\.ok) { try? FileManager.default.removeItem(atPath: downloads) }
    }
}
