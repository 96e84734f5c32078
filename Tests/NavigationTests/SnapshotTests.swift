import Foundation
import Testing
@testable import Navigation

@Suite(.timeLimit(.minutes(1)))
struct SnapshotTests {
    func busyCoordinator() -> Coordinator {
        var coordinator = demo()
        coordinator.must(push("orange"))
        coordinator.must(present("modal", "sheet"))
        coordinator.must(.selectTab("news"))
        coordinator.must(push("news-item", ["id": .int(-9)]))
        coordinator.must(.undo)
        coordinator.must(.open("/profile/settings"))
        coordinator.must(.undo)
        return coordinator
    }

    @Test func snapshotRoundTripIsTheIdentity() throws {
        let coordinator = busyCoordinator()
        let bytes = coordinator.state.encodedSnapshot()
        let decoded = try NavigationState.decodeSnapshot(bytes)
        #expect(decoded == coordinator.state)
        #expect(decoded.encodedSnapshot() == bytes)
        let restored = Coordinator(graph: .demo, restoring: decoded)
        #expect(restored.path == coordinator.path && restored.nodes == coordinator.nodes)
        #expect(restored.canUndo && restored.canRedo && restored.history(limit: 100) == coordinator.history(limit: 100))
        #expect(Array(bytes.prefix(5)) == Array("NVDS".utf8) + [2])
        #expect(try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshotVersion1()) == coordinator.state)
    }

    @Test func restoredStateContinuesTheIdCounter() throws {
        let coordinator = busyCoordinator()
        var restored = Coordinator(graph: .demo, restoring: try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot()))
        var original = coordinator
        let a = original.must(push("green"))
        let b = restored.must(push("green"))
        #expect(a?.newScreenId == b?.newScreenId)
        #expect(original.state == restored.state)
    }

    @Test func oddDoublesSurvive() throws {
        let graph = try smallGraph()
        var coordinator = Coordinator(graph: graph)
        for value in [Double.nan, .infinity, -.infinity, -0.0, 0.1, 1e300, Double.leastNonzeroMagnitude] {
            coordinator.must(.setStack([ScreenRequest(route: "home"), ScreenRequest(route: "detail", params: ["id": .int(Int64.min), "zoom": .double(value)])]))
            let decoded = try NavigationState.decodeSnapshot(coordinator.state.encodedSnapshot())
            #expect(decoded == coordinator.state, "zoom \(value)")
        }
    }

    @Test func otherVersionsAndCorruptVersion1DocumentsAreClearErrors() {
        let good = String(decoding: demo().state.encodedSnapshotVersion1(), as: UTF8.self)
        let future = good.replacingOccurrences(of: "\"version\":1", with: "\"version\":3")
        #expect(throws: SnapshotError.unsupportedVersion(found: 3, supported: 2)) { try NavigationState.decodeSnapshot(Array(future.utf8)) }
        let foreign = good.replacingOccurrences(of: "navd-state", with: "other")
        #expect(throws: SnapshotError.corrupt("not a navd state snapshot (format 'other')")) { try NavigationState.decodeSnapshot(Array(foreign.utf8)) }
        for bytes in [[], Array("{".utf8), Array("[]".utf8), Array(good.utf8.prefix(40)), [0xFF, 0xFE, 0x00]] {
            #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(bytes) }
        }
        let emptyStack = good.replacingOccurrences(of: ##"{"id":"#2","params":{},"route":"red"}"##, with: "")
        #expect(emptyStack != good)
        do {
            _ = try NavigationState.decodeSnapshot(Array(emptyStack.utf8))
            Issue.record("a tree with an empty stack decoded")
        } catch {
            #expect("\(error)".hasPrefix("corrupt navd document"))
        }
        let duplicated = good.replacingOccurrences(of: "\"#4\"", with: "\"#2\"")
        #expect(throws: SnapshotError.corrupt("tree: screen id '#2' is empty or used twice")) { try NavigationState.decodeSnapshot(Array(duplicated.utf8)) }
    }

    @Test func journalRecordsRoundTrip() throws {
        let ops: [Navigation.Operation] = [
            push("news-item", ["id": .int(1), "x": .list([.uint(3), .double(.infinity), .record([.bool(true), .other("o")])]), "m": .map(["k": .variant(.string("v"))])]),
            .pop, .popTo(target: "#3"), .popToRoot, .replace(route: "r", params: [:]),
            .setStack([ScreenRequest(route: "a"), ScreenRequest(route: "b", params: ["p": .string("q")])]),
            present("modal", "cover"), .dismiss, .dismissAll, .back, .selectTab("news"), .open("/news/1"),
            .apply([RawOperation(name: "push", arguments: ["route": .string("red")])], expectedRevision: 7), .undo, .redo, .reconcile,
        ]
        for (index, op) in ops.enumerated() {
            let record = JournalRecord(revision: UInt64(index + 2), cause: op.cause, time: testTime, operation: op)
            let decoded = try JournalRecord.decode(record.encoded())
            #expect(decoded == record)
        }
        #expect(throws: SnapshotError.self) { try JournalRecord.decode(Array("{\"format\":\"navd-journal\",\"version\":1}".utf8)) }
        #expect(throws: SnapshotError.unsupportedVersion(found: 9, supported: 2)) { try JournalRecord.decode(Array("{\"format\":\"navd-journal\",\"version\":9}".utf8)) }
        let unknownOp = #"{"cause":"x","format":"navd-journal","operation":{"op":"teleport"},"revision":2,"time":0,"version":1}"#
        #expect(throws: SnapshotError.self) { try JournalRecord.decode(Array(unknownOp.utf8)) }
    }

    @Test func replayReproducesTheState() throws {
        var original = demo()
        let start = original
        var records: [JournalRecord] = []
        for op in [push("orange"), present("modal"), .selectTab("news"), .open("/news/3"), .undo, .redo, .undo, .popToRoot] {
            if let record = original.must(op)?.record { records.append(record) }
        }
        var replayed = start
        for record in records { _ = try replayed.replay(JournalRecord.decode(record.encoded())) }
        #expect(replayed.state == original.state)
        #expect(throws: ReplayError.self) { try replayed.replay(records[0]) }  // does not follow the revision
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SnapshotValidationTests {
    @Test func idsThatWouldBeReusedAreCorrupt() {
        let good = String(decoding: demo().state.encodedSnapshotVersion1(), as: UTF8.self)
        let reused = good.replacingOccurrences(of: "\"nextId\":7", with: "\"nextId\":5")
        #expect(reused != good)
        #expect(throws: SnapshotError.corrupt("id '#6' is not below the next id 5: ids would be reused")) { try NavigationState.decodeSnapshot(Array(reused.utf8)) }
        let huge = good.replacingOccurrences(of: "\"revision\":1", with: "\"revision\":18446744073709551615")
        #expect(throws: SnapshotError.self) { try NavigationState.decodeSnapshot(Array(huge.utf8)) }
    }

    @Test func longChainsReleaseWithoutDeepRecursion() {
        var stack = BoundedStack<Int>()
        for value in 0..<300_000 { stack.push(value, keep: 200_000) }
        let copy = stack
        #expect(copy.count == stack.count && stack.count >= 200_000)
        stack = BoundedStack()
        #expect(copy.newest(2) == [299_999, 299_998])
    }
}
