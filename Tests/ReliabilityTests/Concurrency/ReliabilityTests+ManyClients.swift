import DBus
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

extension ReliabilityTests {
    /// Calls from many clients at once, each pipelining, some hanging up before their replies
    /// come: every answered change has its own revision, the final revision is the start plus
    /// the number of changes in the history, and navd keeps serving.
    @Test(.timeLimit(.minutes(5)))
    func manyClientsAtOnceEachGetTheirOwnRevisions() async throws {
        try await Self.withNavd("many-clients") { run in
            let clients = ReliabilityMode.pick(short: 40, long: 200)
            let callsPerClient = ReliabilityMode.pick(short: 50, long: 500)

            let (answered, problems, startRevision, final) = try await onThread("many-clients") { () throws -> ([UInt64], [String], UInt64, TreeSnapshot) in
                let observer = try Connection(.address(run.bus.address))
                defer { observer.close() }
                let startRevision = try observer.revision()
                let shared = LockedBox((answered: [UInt64](), problems: [String]()))
                var rng = SeededGenerator(seed: run.seed)
                let group = DispatchGroup()
                for client in 0..<clients {
                    let clientSeed = rng.next()
                    let hangsUp = client % 4 == 3
                    group.enter()
                    Thread {
                        defer { group.leave() }
                        var clientRng = SeededGenerator(seed: clientSeed)
                        var revisions: [UInt64] = []
                        var problems: [String] = []
                        do {
                            let connection = try Connection(.address(run.bus.address))
                            if hangsUp {
                                // Sends its calls and closes at once: navd answers into the void.
                                for _ in 0..<callsPerClient {
                                    try connection.send(Message.navigatorCall("Push", [.string("orange"), DBusValue.emptyParams]))
                                }
                                connection.flush()
                                connection.close()
                            } else {
                                defer { connection.close() }
                                let pipeline = Pipeline(connection: connection, window: 16, replyTimeout: 30)
                                let deliver: (Int, Message) throws -> Void = { _, reply in
                                    if reply.kind == .error {
                                        let name = Contract.shortErrorName(reply.errorName ?? "?")
                                        if name != "AtRoot" && name != "LimitExceeded" { problems.append("a call failed with \(name)") }
                                    } else if let revision = try reply.body().first?.uint64Value {
                                        revisions.append(revision)
                                    }
                                }
                                for _ in 0..<callsPerClient {
                                    let message = clientRng.chance(0.6)
                                        ? try Message.navigatorCall("Push", [.string(clientRng.pick(["yellow", "green"])), DBusValue.emptyParams])
                                        : try Message.navigatorCall("Pop")
                                    try pipeline.send(message, deliver: deliver)
                                }
                                try pipeline.drain(deliver: deliver)
                                if pipeline.strayReplies > 0 { problems.append("\(pipeline.strayReplies) stray replies") }
                            }
                        } catch {
                            problems.append("client \(client): \(error)")
                        }
                        shared.withLock {
                            $0.answered += revisions
                            $0.problems += problems
                        }
                    }.start()
                }
                guard group.wait(timeout: .now() + 240) == .success else { throw HarnessError("the clients did not finish") }
                // The hung-up clients' calls are still being served; wait until navd is quiet.
                var final = try observer.treeSnapshot()
                while true {
                    usleep(200_000)
                    let again = try observer.treeSnapshot()
                    if again == final { break }
                    final = again
                }
                let result = shared.withLock { $0 }
                return (result.answered, result.problems, startRevision, final)
            }

            let unique = Set(answered)
            let changes = final.revision - startRevision
            var figures = Figures("many-clients")
            figures.add("seed", run.seed)
            figures.add("clients", clients)
            figures.add("hung-up-clients", clients / 4)
            figures.add("answered-changes", answered.count)
            figures.add("revisions", "\(startRevision)→\(final.revision)")
            figures.add("problems", problems.count)
            figures.print()

            #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
            #expect(unique.count == answered.count, "\(answered.count - unique.count) revisions were answered to two calls")
            #expect(answered.allSatisfy { $0 > startRevision && $0 <= final.revision })
            // Every change made a revision: those answered here plus the hung-up clients' pushes.
            #expect(UInt64(answered.count) <= changes)
            #expect(final.historyRevisions.first == final.revision)
            let newest = Array(final.historyRevisions.prefix(Int(min(changes, 1_000))))
            #expect(newest == Array(stride(from: final.revision, to: final.revision - UInt64(newest.count), by: -1)), "the history is not one sequence")
            #expect(run.navd.isRunning)
        }
    }
}
