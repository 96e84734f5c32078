import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// Reloads are bounded (`docs/reliability.md#bounded-route-files`): at most 16 `Reload` calls wait behind the one under way,
/// more are answered `LimitsExceeded`, every call is answered, and SIGTERM during a reload stops
/// navd within 5 seconds whatever the file being parsed.
@Suite("navd reload bounds", .timeLimit(.minutes(3)), .enabled(if: EndToEnd.navdAvailable))
struct NavdReloadBoundsTests {
    let mail = NavdWithApps.path("mail")
    let main = NavdWithApps.path(nil)

    /// A valid route file of almost 1 MiB (the most navd reads): 9,000 routes titled `title N`.
    static func bigFile(_ title: String) -> String {
        "root: home\nroutes:\n  home: {}\n"
            + (0..<9_000).map { "  r\($0): { title: \"\(title) \($0)\", params: { id: { type: int, required: true } } }\n" }.joined()
    }

    /// YAML aliases nested eight deep and used as a mapping key: a parser that expands them works
    /// for minutes (one that counts nodes refuses the file at once).
    static let aliasBomb = "root: home\nx0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        + (1...8).map { "x\($0): &a\($0) [" + Array(repeating: "*a\($0 - 1)", count: 9).joined(separator: ", ") + "]\n" }.joined()
        + "routes:\n  home: {}\n  ? *a8\n  : {}\n"

    /// Sends `member` (no arguments) to the navigator at `path` without waiting; its serial.
    func send(_ client: Connection, _ member: String, at path: String) throws -> UInt32 {
        try client.send(Message.navigatorCall(member, path: path))
    }

    /// Waits for the answers to `serials` (at most `timeout` seconds in all), by serial; answers to
    /// `kept` that arrive meanwhile are returned too (another wait would never see them).
    func answers(_ client: Connection, _ serials: [UInt32], keeping kept: [UInt32] = [], timeout: Double) -> [UInt32: Message] {
        var answers: [UInt32: Message] = [:]
        let deadline = Date().addingTimeInterval(timeout)
        while !serials.allSatisfy({ answers[$0] != nil }), Date() < deadline {
            let wanted = { (message: Message) in serials.contains(message.replySerial) || kept.contains(message.replySerial) }
            if let answer = client.waitForMessage(timeout: 1, matching: wanted) {
                answers[answer.replySerial] = answer
            }
        }
        return answers
    }

    @Test func twentyFourReloadsWhileOneIsSlowAreEachAnsweredAndThoseBeyondSixteenWaitingAreRefused() throws {
        let navd = try NavdWithApps(apps: ["big": Self.bigFile("A"), "mail": AppRouteFiles.mail], start: false)
        try navd.navd.start(timeout: 120)
        let client = try navd.connect()
        // Other bytes: the first Reload parses almost 1 MiB on its thread while the others arrive.
        try navd.write("big", Self.bigFile("B"))

        var reloads: [UInt32] = []
        var states: [UInt32] = []
        for index in 0..<24 {
            reloads.append(try send(client, NavigatorMethod.reload.name, at: main))
            if index % 6 == 5 { states.append(try send(client, "GetState", at: mail)) }
        }
        client.flush()
        let answered = answers(client, reloads + states, timeout: 150)
        #expect(answered.count == reloads.count + states.count, "every call answered: \(answered.count) of \(reloads.count + states.count)")
        #expect(states.allSatisfy { answered[$0]?.errorName == nil }, "GetState on mail answered while the reloads ran")
        let refused = reloads.filter { answered[$0]?.errorName == DBusErrorName.limitsExceeded }
        let done = reloads.filter { answered[$0]?.errorName == nil && answered[$0] != nil }
        #expect(refused.count >= 1 && refused.count <= 24 - 17, "\(refused.count) refused: one parses, up to 16 wait")
        #expect(done.count + refused.count == reloads.count,
                "the others reloaded: \(reloads.compactMap { answered[$0]?.errorName }.filter { $0 != DBusErrorName.limitsExceeded })")
        print("reload bounds: of 24 pipelined Reload calls \(done.count) reloaded, \(refused.count) refused with LimitsExceeded")
        if let first = refused.first, let message = try answered[first]?.body().first?.stringValue {
            #expect(message.contains("a reload is under way and 16 Reload calls wait"), "\(message)")
        }
        #expect(try client.routeNames(at: NavdWithApps.path("big")).count == 9_001)
        #expect(try client.push("message", [("id", .string("a"))], at: mail) == 2, "navd still serves")
        #expect(navd.navd.stop(timeout: 5) == 0)
    }

    @Test func sigtermDuringAReloadThatParsesForMinutesStopsNavdWithinFiveSecondsAndAnswersTheCall() throws {
        let navd = try NavdWithApps(apps: ["mail": AppRouteFiles.mail])
        let client = try navd.connect()
        try client.push("message", [("id", .string("a"))], at: mail)
        try navd.write("bomb", Self.aliasBomb)
        let reload = try send(client, NavigatorMethod.reload.name, at: main)
        let waiting = try send(client, NavigatorMethod.reload.name, at: main)
        let state = try send(client, "GetState", at: mail)
        client.flush()
        // GetState is answered once navd has read both Reload calls and started parsing.
        // The Reloads may be answered before GetState (a parser that counts nodes refuses the file fast):
        // their replies are kept, not dropped while waiting for GetState's.
        var answered = answers(client, [state], keeping: [reload, waiting], timeout: 30)
        #expect(answered[state] != nil && answered[state]?.errorName == nil, "calls are answered while the file is parsed")

        let stopping = ContinuousClock.now
        #expect(navd.navd.stop(timeout: 5) == 0, "navd stopped within 5 s: \(navd.navd.stderr)")
        print("reload bounds: SIGTERM during a reload stopped navd in \(ContinuousClock.now - stopping)")
        answered.merge(answers(client, [reload, waiting].filter { answered[$0] == nil }, timeout: 10)) { $1 }
        for serial in [reload, waiting] {
            // Abandoned at the stop (Failed), or refused before it by a parser that counts nodes.
            let name = answered[serial]?.errorName
            #expect(name == DBusErrorName.failed || name == NavigatorErrorName.invalidRouteFile.fullName,
                    "answered by navd, not left to the bus: \(name ?? "no answer")")
        }
        try navd.removeFile("bomb")
        try navd.navd.start()
        #expect(try client.revision(at: mail) == 2, "the answered change survived the stop")
    }
}
