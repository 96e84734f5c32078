import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// `Reload` while 8 clients change two apps and the default navigator: every change answered is
/// in its navigator's history with its cause, nothing goes unanswered, and all of it survives a
/// restart.
@Suite("navd reload under load", .timeLimit(.minutes(3)))
struct NavdReloadLoadTests {
    /// What the clients and the reloader saw, shared between their threads.
    final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var answered: [String: [(revision: UInt64, cause: String)]] = [:]
        private var problems: [String] = []
        private var reloads = 0
        private var clientsDone = 0

        func record(_ path: String, _ revision: UInt64, _ cause: String) {
            lock.withLock { answered[path, default: []].append((revision, cause)) }
        }
        func problem(_ text: String) { lock.withLock { if problems.count < 20 { problems.append(text) } } }
        func reloaded() { lock.withLock { reloads += 1 } }
        func clientFinished() { lock.withLock { clientsDone += 1 } }
        var finishedClients: Int { lock.withLock { clientsDone } }
        var reloadCount: Int { lock.withLock { reloads } }
        var allProblems: [String] { lock.withLock { problems } }
        func changes(at path: String) -> [(revision: UInt64, cause: String)] { lock.withLock { answered[path] ?? [] } }
    }

    @Test func everyAnsweredChangeSurvivesRepeatedReloadsFromEightClients() throws {
        let navd = try NavdWithApps()
        let targets: [(path: String, route: String)] = [
            (NavdWithApps.path(nil), "orange"), (NavdWithApps.path("shop"), "checkout"), (NavdWithApps.path("mail"), "inbox"),
        ]
        let clients = 8
        let rounds = 60
        let ledger = Ledger()
        let done = DispatchGroup()
        let address = navd.bus.address

        for index in 0..<clients {
            let target = targets[index % targets.count]
            done.enter()
            Thread.detachNewThread {
                defer { ledger.clientFinished(); done.leave() }
                do {
                    let connection = try Connection(.address(address))
                    defer { connection.close() }
                    for round in 0..<rounds {
                        for (member, arguments) in [("Push", [DBusValue.string(target.route), .emptyParams]), ("Pop", [])] {
                            do {
                                let out = try connection.navigator(member, arguments, at: target.path, timeoutMilliseconds: 30_000)
                                ledger.record(target.path, out.first?.uint64Value ?? 0, member.lowercased())
                            } catch {
                                ledger.problem("client \(index) round \(round) \(member) at \(target.path): \(error)")
                            }
                        }
                    }
                } catch {
                    ledger.problem("client \(index) could not connect: \(error)")
                }
            }
        }

        // The reloader: edits both app files (routes nobody stands on) and reloads, everything
        // or one app, until the clients are done.
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            do {
                let connection = try Connection(.address(address))
                defer { connection.close() }
                var step = 0
                while ledger.finishedClients < clients {
                    try navd.write("mail", step % 2 == 0 ? AppRouteFiles.mailWithArchive : AppRouteFiles.mail)
                    try navd.write("shop", step % 3 == 0 ? AppRouteFiles.shopReformatted : AppRouteFiles.shop)
                    let path = [NavdWithApps.path(nil), NavdWithApps.path("mail"), NavdWithApps.path("shop")][step % 3]
                    do {
                        try connection.reload(at: path)
                        ledger.reloaded()
                    } catch {
                        ledger.problem("Reload at \(path): \(error)")
                    }
                    step += 1
                }
            } catch {
                ledger.problem("the reloader: \(error)")
            }
        }
        #expect(done.wait(timeout: .now() + 150) == .success, "clients or reloader still running")
        #expect(ledger.allProblems.isEmpty, "\(ledger.allProblems.joined(separator: "\n"))")
        #expect(ledger.reloadCount >= 2, "Reload ran while the clients did")
        print("reload under load: \(ledger.reloadCount) reloads during \(clients * rounds * 2) changes")

        func check(_ client: Connection, _ when: String) throws {
            for target in targets {
                let answered = ledger.changes(at: target.path)
                let clientsOnTarget = (0..<clients).filter { $0 % targets.count == targets.firstIndex { $0.path == target.path }! }.count
                #expect(answered.count == clientsOnTarget * rounds * 2, "\(when) \(target.path): every call answered")
                #expect(Set(answered.map(\.revision)).count == answered.count, "\(when) \(target.path): each change its own revision")
                let history = try client.history(at: target.path)
                let recorded = Dictionary(history.map { ($0.revision, $0.cause) }, uniquingKeysWith: { first, _ in first })
                let missing = answered.filter { recorded[$0.revision] != $0.cause }
                #expect(missing.isEmpty, "\(when) \(target.path): answered changes not in History: \(missing.prefix(5))")
                let others = history.filter { $0.cause != "push" && $0.cause != "pop" }
                #expect(others.allSatisfy { $0.cause == "reconcile" }, "\(when) \(target.path): \(others.prefix(5))")
                #expect(history.count == answered.count + others.count, "\(when) \(target.path): nothing but the answered changes and repairs")
                #expect(try client.revision(at: target.path) == history.first?.revision)
                #expect(try client.navigatorRoutes(at: target.path).count == 1, "\(when) \(target.path): every push was popped")
            }
        }
        let client = try navd.connect()
        try check(client, "after the run")
        #expect(navd.navd.stop() == 0)
        try navd.navd.start()
        try check(try navd.connect(), "after a restart")
    }
}
