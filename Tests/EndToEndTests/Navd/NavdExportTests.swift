import DBus
import Foundation
import Navigation
import NavdClient
import NavigatorProtocol
import Recording
import Testing
import TestSupport

/// Export against a real navd (docs/devtools.md "Recordings"): pushes, a Send, an Undo, an Open, a Revert and a
/// reload that changed the graph without a revision, read through the async client, navctl and busctl; the
/// same recording after kill -9; --redact leaves no param value in the file; bad from_revision and a wrong
/// signature are refused.
@Suite("navd Export", .serialized, .timeLimit(.minutes(3)))
struct NavdExportTests {
    static let routes = """
        root: home
        routes:
          home:
            title: Home
            on:
              next: { push: list }
          list:
            title: List
            params:
              filter: string
          detail:
            title: Detail
            params:
              id: { type: int, required: true }
              name: string
              zoom: double
              pinned: bool
            link: /items/{id}

        """

    /// Every param value the session below sends, as text a file could hold.
    static let secrets = ["4242", "secretname", "3.25", "hiddenfilter", "987654", "afterreload"]

    /// Makes the session: revisions 2 to 8, with a reload between 7 and 8 that changed the graph only.
    func session(_ navd: NavdCrashEdit) async throws -> AsyncNavigator {
        let bus = navd.bus.address
        let client = try AsyncNavigator(bus: .address(bus), timeoutMilliseconds: 10_000)
        #expect(try await client.send(.send("next")).revision == 2)
        _ = try await client.send(.push("detail", params: ["id": .int(4242), "name": .string("secretname"), "zoom": .double(3.25), "pinned": .bool(true)]))
        let pushed = try runNavctl(["--address", bus, "push", "list", "filter=hiddenfilter"], bus: navd.bus)
        #expect(pushed.status == 0, "\(pushed)")
        #expect(try await client.send(.undo) == 5)
        #expect(try await client.send(.open("/items/987654")) == 6)
        #expect(try await client.send(.revert(to: 3)) == 7)
        try navd.write(Self.routes + "  extra: { title: Extra }\n")
        #expect(try await client.send(.reload) == 7, "the reload changes the graph, not the tree")
        #expect(try await client.send(.push("list", params: ["filter": .string("afterreload")])).revision == 8)
        return client
    }

    @Test func aSessionIsExportedWholeAndTheSameAfterKillNine() async throws {
        guard EndToEnd.navdAvailable else { return }
        let navd = try NavdCrashEdit(routes: Self.routes)
        var client = try await session(navd)
        let text = try await client.send(.export())
        let recording = try Recording.decode(text)
        #expect(recording.navd == Navigator.version && recording.app == "" && !recording.redacted)
        #expect(recording.routes == .file(path: navd.routeFile, text: Self.routes))
        #expect(recording.start.revision == 1)
        let start = try NavigationState.decodeSnapshot(recording.start.snapshot)
        #expect(start.revision == 1)
        #expect(recording.changes.map(\.revision) == [2, 3, 4, 5, 6, 7, 8])
        #expect(recording.changes.map(\.method) == ["Send", "Push", "Push", "Undo", "Open", "Revert", "Push"])
        #expect(recording.changes.map(\.cause) == ["send", "push", "push", "undo", "open", "revert", "push"])
        #expect(recording.changes.allSatisfy { $0.nextId >= 2 })
        #expect(recording.changes[1].nextId == recording.changes[0].nextId + 1, "a push takes one id")
        #expect(recording.changes.map { $0.routes != nil } == [false, false, false, false, false, false, true], "the reload's graph on the change after it")
        #expect(recording.changes[6].routes == .file(path: navd.routeFile, text: Self.routes + "  extra: { title: Extra }\n"))
        let push = recording.changes[1]
        #expect(push.arguments?.encoded() == #"{"route":"detail","params":{"id":4242,"name":"secretname","pinned":true,"zoom":3.25}}"#)
        #expect(try RecordedCall.arguments(method: "Push", json: push.arguments!).first == .string("detail"))
        #expect(push.path.last?.route == "detail" && push.path.last?.params["zoom"] == .double(3.25))
        #expect(recording.changes[2].caller?.command == "navctl" && recording.changes[2].caller?.uid == getuid())
        #expect(recording.changes[5].arguments?.encoded() == #"{"revision":3,"expected_revision":0}"#)
        #expect(recording.changes[5].path == push.path, "the revert brought back revision 3's path")
        // from_revision: the first kept change at or after it; the start is the revision before it.
        let fromFive = try Recording.decode(try await client.send(.export(from: 5)))
        #expect(fromFive.start.revision == 4 && fromFive.changes.map(\.revision) == [5, 6, 7, 8])
        let restarted = try NavigationState.decodeSnapshot(fromFive.start.snapshot)
        #expect(restarted.revision == 4)

        // The same recording after kill -9 (the journal) and after a snapshot (SIGTERM) and kill -9 again.
        navd.navd.kill9()
        try navd.navd.start()
        client = try AsyncNavigator(bus: .address(navd.bus.address), timeoutMilliseconds: 10_000)
        #expect(try await client.send(.export()) == text)
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        navd.navd.kill9()
        try navd.navd.start()
        client = try AsyncNavigator(bus: .address(navd.bus.address), timeoutMilliseconds: 10_000)
        #expect(try await client.send(.export()) == text)
    }

    @Test func navctlWritesTheFileAndRedactsEveryParamValue() async throws {
        guard EndToEnd.navdAvailable else { return }
        let navd = try NavdCrashEdit(routes: Self.routes)
        _ = try await session(navd)
        let plain = navd.stateDirectory + "-plain.json", redacted = navd.stateDirectory + "-redacted.json"
        defer { unlink(plain); unlink(redacted) }
        let written = try runNavctl(["--address", navd.bus.address, "export", "-o", plain], bus: navd.bus)
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
        let plainText = try String(contentsOfFile: plain, encoding: .utf8)
        for secret in Self.secrets { #expect(plainText.contains(secret), "\(secret) is in the plain recording") }
        let stdout = try runNavctl(["--address", navd.bus.address, "export", "--from", "3"], bus: navd.bus)
        #expect(try Recording.decode(stdout.stdout).changes.first?.revision == 3, "\(stdout)")

        let hidden = try runNavctl(["--address", navd.bus.address, "export", "--redact", "-o", redacted], bus: navd.bus)
        #expect(hidden.status == 0, "\(hidden)")
        let redactedText = try String(contentsOfFile: redacted, encoding: .utf8)
        let recording = try Recording.decode(redactedText)
        #expect(recording.redacted && recording.changes.allSatisfy { $0.caller == nil })
        // The start state is in base64: decode it and look there too.
        let startState = try NavigationState.decodeSnapshot(recording.start.snapshot)
        let startText = String(decoding: startState.encodedSnapshot(), as: UTF8.self)
        for secret in Self.secrets {
            #expect(!redactedText.contains(secret), "\(secret) is not in the redacted recording")
            #expect(!startText.contains(secret), "\(secret) is not in its start state")
        }
        let push = recording.changes[1]
        #expect(push.arguments?.encoded() == #"{"route":"detail","params":{"id":0,"name":"xxxxxxxxxx","pinned":false,"zoom":0.0}}"#)
        #expect(recording.changes[4].arguments?.encoded() == #"{"target":"/items/0"}"#, "the int link param keeps its type")
        #expect(push.path.last?.params == ["id": .int(0), "name": .string("xxxxxxxxxx"), "pinned": .bool(false), "zoom": .double(0)])
    }

    @Test func badFromRevisionAndAWrongSignatureAreRefused() async throws {
        guard EndToEnd.navdAvailable else { return }
        let navd = try NavdCrashEdit(routes: Self.routes)
        let client = try AsyncNavigator(bus: .address(navd.bus.address), timeoutMilliseconds: 10_000)
        await #expect(throws: NavigatorError.self) { try await client.send(.export()) }
        _ = try await client.send(.send("next"))
        do {
            _ = try await client.send(.export(from: 9))
            Issue.record("a from_revision after every change was accepted")
        } catch {
            #expect(error.shortName == "RevisionNotKept" && error.description.contains("revision 9"), "\(error)")
        }
        let call = ["--address=\(navd.bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName]
        let read = try ChildProcess.run("/usr/bin/busctl", call + ["Export", "tb", "0", "false"], timeout: 20)
        #expect(read.status == 0 && read.stdout.hasPrefix("s \"{\\\"navd-recording\\\":1,"), "\(read)")
        let wrong = try ChildProcess.run("/usr/bin/busctl", call + ["Export", "t", "0"], timeout: 20)
        #expect(wrong.status != 0 && wrong.stderr.contains("argument"), "\(wrong)")
        let notKept = try ChildProcess.run("/usr/bin/busctl", call + ["Export", "tb", "99", "true"], timeout: 20)
        #expect(notKept.status != 0 && notKept.stderr.contains("not"), "\(notKept)")
        let navctl = try runNavctl(["--address", navd.bus.address, "export", "--from", "99"], bus: navd.bus)
        #expect(navctl.status == 1 && navctl.stderr.contains("RevisionNotKept"), "\(navctl)")
    }

    @Test func anAppsNavigatorIsExportedWithItsNameAndRouteFile() throws {
        guard EndToEnd.navdAvailable else { return }
        let navd = try NavdWithApps()
        let client = try navd.connect()
        _ = try client.push("product", [("sku", .int64(31337))], at: NavdWithApps.path("shop"))
        let result = try runNavctl(["--address", navd.bus.address, "export", "--app", "shop"], bus: navd.bus)
        #expect(result.status == 0, "\(result)")
        let recording = try Recording.decode(result.stdout)
        #expect(recording.app == "shop" && recording.changes.map(\.method) == ["Push"])
        #expect(recording.routes == .file(path: navd.file("shop"), text: AppRouteFiles.shop))
        #expect(recording.changes.first?.path.last?.params["sku"] == .int(31337))
        let main = try runNavctl(["--address", navd.bus.address, "export"], bus: navd.bus)
        #expect(main.status == 1 && main.stderr.contains("RevisionNotKept"), "the default navigator has no change: \(main)")
    }
}
