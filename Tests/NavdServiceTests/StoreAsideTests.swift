import Foundation
import SQLite
import Testing
@testable import NavdService

/// Rows kept aside: out of the journal's way, still in the file, still counted in how far
/// revisions and ids went.
@Suite(.timeLimit(.minutes(1)))
struct StoreAsideTests {
    @Test func rowsSetAsideNoLongerBlockNewRowsAtTheirRevisions() throws {
        try withFreshStore("aside") { store, temporary in
            let original = storeRecords(from: 1, count: 10)
            try store.append(original)
            // What a stopped replay used to lead to: the next change clashes with a stored revision.
            let replacement = storeRecords(from: 6, count: 3, payloadSize: 20)
            let clash = #expect(throws: StoreError.self) { try store.append(replacement) }
            #expect(clash?.message.contains("UNIQUE constraint failed: journal.revision (SQLite code 1555)") == true)

            #expect(try store.setAside(fromRevision: 6, reason: "UnknownRoute 'extra'") == 5)
            #expect(store.journalLength == 5)
            try expectCountersMatchTheFile(store)
            try store.append(replacement)
            try expectCountersMatchTheFile(store)
            store.close()

            let reopened = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            defer { reopened.close() }
            try expectCountersMatchTheFile(reopened)
            let contents = try reopened.load()
            #expect(contents.journal == Array(original[..<5]) + replacement)
            #expect(contents.highestRevision == 10, "revision 10 was answered once, so the next one must be above it")
            #expect(contents.highestNextId == 100)
            #expect(contents.asideCount == 5)

            // The same revisions can be set aside again, years later.
            #expect(try reopened.setAside(fromRevision: 7, reason: "second time") == 2)
            #expect(try reopened.load().journal == Array(original[..<5]) + [replacement[0]])
            let aside = try withStoreDatabase(reopened) { db in
                try db.collect("SELECT revision, next_id, payload, reason, time FROM journal_aside ORDER BY id") { row in
                    (row.int64(at: 0), row.int64(at: 1), row.bytes(at: 2), row.text(at: 3), row.int64(at: 4))
                }
            }
            #expect(aside.map(\.0) == [6, 7, 8, 9, 10, 7, 8])
            #expect(aside.map(\.1) == [60, 70, 80, 90, 100, 70, 80])
            #expect(aside.map(\.2) == original[5...].map(\.payload) + replacement[1...].map(\.payload))
            #expect(aside.map(\.3) == Array(repeating: "UnknownRoute 'extra'", count: 5) + ["second time", "second time"])
            let now = Int64(Date().timeIntervalSince1970)
            #expect(aside.allSatisfy { $0.4 > now - 600 && $0.4 <= now + 1 }, "the time a row was set aside is kept")
            #expect(try reopened.load().asideCount == 7)
            try expectCountersMatchTheFile(reopened)
        }
    }

    @Test func settingAsideAboveTheJournalMovesNothing() throws {
        try withFreshStore("aside-none") { store, _ in
            try store.append(storeRecords(from: 1, count: 3))
            #expect(try store.setAside(fromRevision: 4, reason: "nothing") == 0)
            #expect(try store.setAside(fromRevision: UInt64.max, reason: "nothing") == 0)
            #expect(try store.load().journal.count == 3)
            #expect(try store.load().asideCount == 0)
            try expectCountersMatchTheFile(store)
        }
    }

    @Test func theHighestRevisionAndIdCounterCoverTheSnapshotTheJournalAndTheRowsAside() throws {
        try withFreshStore("highest") { store, _ in
            #expect(try store.load().highestRevision == 0)
            #expect(try store.load().highestNextId == 0)
            try store.append(storeRecords(from: 1, count: 5))
            try store.writeSnapshot(revision: 5, nextId: 900, document: [5], graph: nil)
            var contents = try store.load()
            #expect(contents.highestRevision == 5)
            #expect(contents.highestNextId == 900, "the snapshot's counter counts though its rows are gone")
            try store.append([StoredRecord(revision: 6, nextId: 950, payload: [6])])
            try store.setAside(fromRevision: 6, reason: "test")
            contents = try store.load()
            #expect(contents.journal.isEmpty)
            #expect(contents.highestRevision == 6)
            #expect(contents.highestNextId == 950)
            try expectCountersMatchTheFile(store)
        }
    }

    @Test func theCountersFollowEveryOperation() throws {
        try withFreshStore("counters") { store, temporary in
            try expectCountersMatchTheFile(store)
            try store.append(storeRecords(from: 1, count: 40, payloadSize: 70))
            try expectCountersMatchTheFile(store)
            try writeStoreSnapshot(store, revision: 20, document: [UInt8](repeating: 1, count: 500))
            try expectCountersMatchTheFile(store)
            #expect(store.snapshotBytes == 500)
            try store.setAside(fromRevision: 30, reason: "test")
            try expectCountersMatchTheFile(store)
            #expect(store.journalLength == 9)
            #expect(throws: StoreError.self) { try store.append(storeRecords(from: 25, count: 2)) }
            try expectCountersMatchTheFile(store)
            store.close()
            let reopened = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            defer { reopened.close() }
            try expectCountersMatchTheFile(reopened)
            #expect(reopened.journalLength == 9 && reopened.snapshotBytes == 500)
        }
    }
}
