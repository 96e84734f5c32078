import DBus
import NavigatorProtocol
import Foundation
import TestSupport
import Testing
import RandomRouteGraphs

extension ReliabilityTests {
    /// Undo and redo survive SIGKILL: after a run of varied changes and a kill, each Undo
    /// brings back exactly the tree before the change it undoes (ids included), and each Redo
    /// the tree after it — with another kill halfway through.
    @Test(.timeLimit(.minutes(3)))
    func undoAndRedoSurviveKills() async throws {
        let changes = ReliabilityMode.pick(short: 30, long: 150)
        try await Self.expectNoProblems("undo-kill") { run in
            let (bus, navd, seed) = (run.bus, run.navd, run.seed)
            var problems: [String] = []
            var rng = SeededGenerator(seed: seed)
            var connection = try Connection(.address(bus.address))
            defer { connection.close() }
            // The trees (nodes and selected tab) before and after each change.
            func shape(_ snapshot: TreeSnapshot) -> String { "\(snapshot.tab) \(snapshot.nodes)" }
            var shapes = [shape(try connection.treeSnapshot())]
            let routes = ["orange", "yellow", "green"]
            while shapes.count <= changes {
                let (method, arguments): (String, [DBusValue]) = switch Int.random(in: 0..<9, using: &rng) {
                case 0, 1, 2: ("Push", [.string(rng.pick(routes)), DBusValue.emptyParams])
                case 3: ("Present", [.string("modal"), DBusValue.emptyParams, .string(rng.pick(["sheet", "cover"]))])
                case 4: ("SelectTab", [.string(rng.pick(["rainbow", "news", "profile"]))])
                case 5: ("Open", [.string(rng.pick(["/news/7", "end", "/profile/settings", "root"]))])
                case 6: ("Back", [])
                case 7: ("Apply", [Contract.ops([Contract.op("push", [("route", .string("teal"))]), Contract.op("present", [("route", .string("modal")), ("style", .string("sheet"))])]), .uint64(0)])
                default: ("SetStack", [.array(element: WireSignature.namedDictionary, [.structure([.string("blue"), DBusValue.emptyParams]), .structure([.string("purple"), DBusValue.emptyParams])])])
                }
                let before = try connection.revision()
                guard (try? connection.navigator(method, arguments)) != nil, try connection.revision() == before + 1 else { continue }
                shapes.append(shape(try connection.treeSnapshot()))
            }

            func restart() throws {
                connection.close()
                navd.kill9()
                try navd.start()
                connection = try Connection(.address(bus.address))
            }
            try restart()
            // The contract keeps at least the last 100 undo steps (--max-undo), across restarts.
            let undos = min(changes, 100)
            let firstUndone = changes - undos + 1
            for step in stride(from: changes, through: firstUndone, by: -1) {
                do {
                    try connection.navigator("Undo")
                } catch {
                    problems.append("Undo number \(changes - step + 1) of \(undos) failed after a kill: \(error)")
                    break
                }
                let now = shape(try connection.treeSnapshot())
                if now != shapes[step - 1] { problems.append("Undo number \(changes - step + 1) after a kill did not bring back the tree before change \(step)") }
                if step == changes - undos / 2 { try restart() }
            }
            if changes < 100 {
                do {
                    try connection.navigator("Undo")
                    problems.append("an Undo past the first change succeeded")
                } catch let error as DBusError where error.name == Contract.errorPrefix + "NothingToUndo" {}
            }
            for step in firstUndone...changes {
                try connection.navigator("Redo")
                if shape(try connection.treeSnapshot()) != shapes[step] { problems.append("Redo of change \(step) did not bring back the tree after it") }
                if step == firstUndone + undos / 3 { try restart() }
            }
            var figures = Figures("undo-across-kills")
            figures.add("seed", seed)
            figures.add("changes", changes)
            figures.add("undone-and-redone", min(changes, 100))
            figures.add("kills", 3)
            figures.add("mismatches", problems.count)
            figures.print()
            return problems
        }
    }
}
