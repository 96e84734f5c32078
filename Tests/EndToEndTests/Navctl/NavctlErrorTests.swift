import NavigatorProtocol
import Foundation
import NavdClient
import TestSupport
import Testing

/// navctl's exit statuses: 1 with `navctl: <message> [<error name>]` when navd refuses,
/// 2 for usage errors, 3 with a hint when navd cannot be reached.
@Suite("navctl reports errors", .serialized, .timeLimit(.minutes(1)))
struct NavctlErrorTests {
    /// Checks a refusal: exit 1, nothing on stdout, one stderr line ending in the error's name.
    func expectRefusal(_ result: CommandResult, _ name: String, mentioning words: [String] = [],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("navctl: "), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix(" [\(Navigator.errorPrefix)\(name)]\n"), "\(result)",
                sourceLocation: sourceLocation)
        for word in words {
            #expect(result.stderr.contains(word), "\(word) not in \(result)", sourceLocation: sourceLocation)
        }
    }

    @Test("each refusal of navd exits 1 with its message and error name", .enabled(if: EndToEnd.navdAvailable))
    func refusals() throws {
        let fixture = try NavdOnPrivateBus()
        expectRefusal(try fixture.navctl("push", "no-such-route"), "UnknownRoute", mentioning: ["no-such-route"])
        expectRefusal(try fixture.navctl("push", "news-item"), "InvalidParams", mentioning: ["news-item", "id"])
        expectRefusal(try fixture.navctl("push", "news-item", "id=abc"), "InvalidParams", mentioning: ["id", "int"])
        expectRefusal(try fixture.navctl("push", "red", "color=blue"), "InvalidParams", mentioning: ["color"])
        expectRefusal(try fixture.navctl("pop"), "AtRoot")
        expectRefusal(try fixture.navctl("back"), "AtRoot")
        expectRefusal(try fixture.navctl("pop-to", "no-such-screen"), "NotFound")
        expectRefusal(try fixture.navctl("dismiss"), "NoModal")
        expectRefusal(try fixture.navctl("tab", "no-such-tab"), "UnknownTab")
        expectRefusal(try fixture.navctl("present", "login", "--sheet"), "NotPresentable", mentioning: ["login"])
        expectRefusal(try fixture.navctl("open", "/rainbow/no-such-route"), "BadTarget")
        expectRefusal(try fixture.navctl("apply", "-", "--expect", "99", standardInput: #"[{"op": "pop"}]"#),
                      "StaleRevision")
        expectRefusal(try fixture.navctl("undo"), "NothingToUndo")
        expectRefusal(try fixture.navctl("redo"), "NothingToRedo")
        expectRefusal(try fixture.navctl("push", String(repeating: "r", count: 5000)), "LimitExceeded")
        #expect(try fixture.client().send(.getState).revision == 1, "a refused call changed nothing")
    }

    @Test("usage errors exit 2, not swift-argument-parser's 64", .enabled(if: EndToEnd.clientsAvailable))
    func usage() throws {
        let missingFile = "/nonexistent/batch-\(getpid()).json"
        let cases: [[String]] = [
            ["push"], ["frobnicate"], ["present", "modal"], ["push", "red", "no-equals-sign"],
            ["apply", missingFile], ["--system", "--address", "unix:path=/x", "state"], ["history", "-n", "many"],
            ["state", "--timeout", "-1"],
        ]
        for arguments in cases {
            let result = try runNavctl(arguments, bus: nil)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(!result.stderr.isEmpty, "\(arguments): \(result)")
        }
        let help = try runNavctl(["--help"], bus: nil)
        #expect(help.status == 0 && help.stdout.contains("pop-to"), "\(help)")
    }

    @Test("navd absent: exit 3, the bus tried, and how to start navd", .enabled(if: EndToEnd.clientsAvailable))
    func navdAbsent() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        for arguments in [["push", "red"], ["state"], ["status"], ["--json", "tree"]] {
            let result = try bus.navctl(arguments)
            #expect(result.status == 3, "\(arguments): \(result)")
            #expect(result.stderr.contains(bus.address), "\(result)")
            #expect(result.stderr.contains("hint: start navd"), "\(result)")
        }
        let session = try runNavctl(["state"], bus: bus)
        #expect(session.status == 3, "\(session)")
        #expect(session.stderr.contains("session bus"), "\(session)")
        #expect(session.stderr.contains("systemctl --user start navd"), "\(session)")
        let status = try runNavctl(["status", "--json", "--address", bus.address], bus: bus)
        status.expectJSON(#"{"running": false, "bus": "\#(bus.address)"}"#, status: 3)
        let noBus = try runNavctl(["--address", "unix:path=/nonexistent/bus-\(getpid())", "state"], bus: nil)
        #expect(noBus.status == 3, "\(noBus)")
        #expect(noBus.stderr.contains("/nonexistent/bus-"), "\(noBus)")
    }
}
