import DBus
import NavigatorProtocol
import Foundation
import RandomRouteGraphs
import TestSupport

/// A client thread that changes the tree as fast as navd answers, until told to stop or
/// until its calls fail because navd is gone.
final class ChangingClient: @unchecked Sendable {
    private let address: String
    private let ledger: CrashLedger
    private var rng: SeededGenerator
    private let stopLock = NSLock()
    private var stopRequested = false
    private var thread: JoinableThread?

    /// Whether this client keeps 32 calls in flight (navd then commits them in groups)
    /// instead of waiting for each answer.
    private let pipelined: Bool

    init(address: String, ledger: CrashLedger, rng: SeededGenerator, pipelined: Bool = false) {
        self.address = address
        self.ledger = ledger
        self.rng = rng
        self.pipelined = pipelined
    }

    /// Starts the thread.
    func start() {
        thread = JoinableThread("ChangingClient") { [self] in run() }
    }

    /// Asks the client to stop after its current call.
    func requestStop() { stopLock.withLock { stopRequested = true } }

    /// Waits up to `timeout` seconds for the thread to end; false if it did not. Safe to call again.
    func join(timeout: Double) -> Bool {
        thread?.join(timeout: timeout) ?? false
    }

    private var shouldStop: Bool { stopLock.withLock { stopRequested } }

    private func run() {
        guard let connection = try? Connection(.address(address)) else { return }
        defer { connection.close() }
        if pipelined {
            runPipelined(connection)
            return
        }
        let rainbow = ["orange", "yellow", "green", "teal", "blue", "purple"]
        while !shouldStop {
            let roll = Int.random(in: 0..<122, using: &rng)
            let method: String
            var arguments: [DBusValue] = []
            var returnsId = false
            var alwaysChanges = true
            /// Send answers (revision, outcome): `ignored` is the one outcome that changed nothing.
            var outcomeDecides = false
            // Every mutating method of the contract, events, flows and facts included, so that
            // every kind of journal record (and flows with kept requests) is replayed after a kill.
            switch roll {
            case 0..<24: method = "Push"; arguments = [.string(rng.pick(rainbow)), DBusValue.emptyParams]; returnsId = true
            case 24..<40: method = "Pop"
            case 40..<46: method = "Present"; arguments = [.string("modal"), DBusValue.emptyParams, .string(rng.pick(["sheet", "cover"]))]; returnsId = true
            case 46..<52: method = "Dismiss"
            case 52..<58: method = "Back"
            case 58..<66:
                method = "Apply"
                let ops = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Contract.op("push", [("route", .string(rng.pick(rainbow)))]) }
                arguments = [Contract.ops(ops), .uint64(0)]
            case 66..<70:
                method = "Apply"
                let mixed = [
                    Contract.op("push", [("route", .string(rng.pick(rainbow)))]),
                    Contract.op("present", [("route", .string("modal")), ("style", .string("sheet")), ("params", DBusValue.emptyParams)]),
                    Contract.op("replace", [("route", .string(rng.pick(rainbow)))]),
                    Contract.op("selecttab", [("tab", .string(rng.pick(["rainbow", "news", "profile"])))]),
                    Contract.op("open", [("target", .string("/news/\(Int.random(in: 1...99, using: &rng))"))]),
                ]
                // Starts with a push, so the whole Apply is always a change.
                arguments = [Contract.ops([mixed[0]] + (0..<2).map { _ in rng.pick(mixed) }), .uint64(0)]
            case 70..<74: method = "Replace"; arguments = [.string(rng.pick(rainbow)), DBusValue.emptyParams]; returnsId = true
            case 74..<77:
                method = "SetStack"
                let screens: [DBusValue] = [.structure([.string("red"), DBusValue.emptyParams]), .structure([.string(rng.pick(rainbow)), DBusValue.emptyParams])]
                arguments = [.array(element: WireSignature.namedDictionary, screens)]
            case 77..<80: method = "PopTo"; arguments = [.string(rng.pick(rainbow))]; alwaysChanges = false
            case 80..<84:
                method = "Open"
                arguments = [.string(rng.pick(["/news/\(Int.random(in: 1...99, using: &rng))", "end", "/rainbow/orange/yellow", "/profile/settings", "root"]))]
                alwaysChanges = false
            case 84..<88: method = "SelectTab"; arguments = [.string(rng.pick(["rainbow", "news", "profile"]))]; alwaysChanges = false
            case 88..<93: method = "Undo"
            case 93..<96: method = "Redo"
            case 100..<106:
                // Events, handled or not where the top screen is: pushes, guard redirects, resumes,
                // finishes, logouts; refusals (UnhandledEvent, GuardLoop) are answers too.
                method = "Send"
                let event = rng.pick(["next", "next", "account", "succeeded", "cancel", "logout", "log-in", "forgot-password", "sent", "show-modal", "close", "call", "failed"])
                let params: DBusValue = event == "failed" ? DBusValue.vardict([("message", .string("timed out"))]) : DBusValue.emptyParams
                arguments = [.string(""), .string(event), params, .uint64(0)]
                outcomeDecides = true
            case 106..<109:
                method = "SelectTab"; arguments = [.string("profile")]; alwaysChanges = false
            case 109..<112: method = "Start"; arguments = [.string("auth"), DBusValue.emptyParams]; returnsId = true
            case 112..<115: method = "Finish"; arguments = [.string(rng.pick(["signed-in", "cancelled"])), DBusValue.emptyParams]
            case 115..<119: method = "SetFacts"; arguments = [.vardict([("signed-in", .boolean(rng.chance(0.5)))])]; alwaysChanges = false
            case 119..<121:
                method = "Apply"
                let ops = [
                    Contract.op("selecttab", [("tab", .string("profile"))]),
                    Contract.op("setfacts", [("facts", .vardict([("signed-in", .boolean(rng.chance(0.5)))]))]),
                    Contract.op("send", [("event", .string("account"))]),
                ]
                arguments = [Contract.ops(ops), .uint64(0)]
                alwaysChanges = false
            default: method = "PopToRoot"; alwaysChanges = false
            }
            do {
                let values = try connection.navigator(method, arguments, timeoutMilliseconds: 5_000)
                guard let revision = values.first?.uint64Value else {
                    ledger.recordViolation("\(method) answered without a revision: \(values)")
                    continue
                }
                if outcomeDecides {
                    if values.dropFirst().first?.stringValue == "ignored" {
                        ledger.recordAnswer(revision: revision)
                    } else {
                        ledger.recordChange(method, revision: revision, newId: nil)
                    }
                } else if alwaysChanges {
                    ledger.recordChange(method, revision: revision, newId: returnsId ? values.dropFirst().first?.stringValue : nil)
                } else {
                    ledger.recordAnswer(revision: revision)
                }
            } catch let error as DBusError {
                ledger.recordError(error.name)
                // navd is gone (killed): the bus answers for it; stop until the next round.
                if !error.name.hasPrefix(Contract.errorPrefix) { return }
            } catch {
                return
            }
        }
    }

    /// Push and Pop with 32 calls in flight until stopped or navd is gone: what group commit
    /// answers together must be on disk together.
    private func runPipelined(_ connection: Connection) {
        let pipeline = Pipeline(connection: connection, window: 32, replyTimeout: 10)
        var navdGone = false
        var popToRootCalls: Set<Int> = []
        let deliver: (Int, Message) throws -> Void = { [ledger] index, reply in
            if reply.kind == .error {
                let name = reply.errorName ?? "?"
                ledger.recordError(name)
                if !name.hasPrefix(Contract.errorPrefix) { navdGone = true }
                return
            }
            let values = try reply.body()
            guard let revision = values.first?.uint64Value else { return }
            // PopToRoot may be a no-op, so its revision is only a lower bound.
            if popToRootCalls.remove(index) != nil { return ledger.recordAnswer(revision: revision) }
            ledger.recordChange(values.count > 1 ? "Push (pipelined)" : "Pop (pipelined)", revision: revision, newId: values.count > 1 ? values[1].stringValue : nil)
        }
        var index = 0
        do {
            while !shouldStop && !navdGone {
                // Two pushes for each pop, so pops rarely meet the root (AtRoot is no change).
                let message = index % 3 == 2
                    ? try Message.navigatorCall("Pop")
                    : try Message.navigatorCall("Push", [.string(rng.pick(["orange", "yellow", "green"])), DBusValue.emptyParams])
                index += 1
                try pipeline.send(message, deliver: deliver)
                if index % 200 == 0 {
                    // Keep the stack under the limit.
                    popToRootCalls.insert(try pipeline.send(try Message.navigatorCall("PopToRoot"), deliver: deliver))
                }
            }
            try pipeline.drain(deliver: deliver)
        } catch {
            // The bus connection is fine; a drain can only fail if navd never answers, which
            // the test's checks after the restart catch.
        }
    }
}
