import Foundation
import Testing
@testable import NavdService

/// The store's contract on a real SQLite database in a temporary directory.
@Suite(.timeLimit(.minutes(1)))
struct StoreTests {
    @Test func appendedRecordsComeBackAfterReopening() throws {
        let temporary = try StoreTemporaryDirectory("reopen")
        defer { temporary.remove() }
        let written = storeRecords(from: 1, count: 40)
        do {
            let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            try store.append([written[0]])
            try store.append(Array(written[1..<32]))
            try store.append(Array(written[32...]))
            #expect(store.journalLength == 40)
            store.close()
        }
        let reopened = try StateStore(directory: temporary.stateDirectory, durability: .full)
        defer { reopened.close() }
        let contents = try reopened.load()
        #expect(contents.snapshot == nil)
        #expect(contents.journal == written)
        #expect(reopened.journalLength == 40)
        #expect(reopened.journalBytes == written.reduce(0) { $0 + $1.payload.count })
    }

    @Test func aNewStoreIsEmptyAndItsDirectoryIsPrivate() throws {
        let temporary = try StoreTemporaryDirectory("fresh")
        defer { temporary.remove() }
        let directory = temporary.stateDirectory + "/nested/deeper"
        let store = try StateStore(directory: directory, durability: .normal)
        defer { store.close() }
        let contents = try store.load()
        #expect(contents.snapshot == nil && contents.journal.isEmpty)
        #expect(store.journalLength == 0)
        #expect(!store.shouldSnapshot)
        let mode = (try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o700)
        let journalMode = try withStoreDatabase(store) { db in try db.firstRow("PRAGMA journal_mode") { $0.text(at: 0) } }
        #expect(journalMode == "wal")
    }

    @Test(arguments: Durability.allCases)
    func eachDurabilitySetsItsSynchronousLevel(durability: Durability) throws {
        try withFreshStore("sync", durability: durability) { store, _ in
            let level = try storeInteger(store, "PRAGMA synchronous")
            #expect(level == (durability == .full ? 2 : 1))
        }
    }

    @Test func aSnapshotDropsTheJournalRowsItCovers() throws {
        try withFreshStore("snapshot") { store, temporary in
            try store.append(storeRecords(from: 1, count: 10))
            let document = Array("the whole tree at 7".utf8)
            try writeStoreSnapshot(store, revision: 7, document: document)
            #expect(store.journalLength == 3)
            #expect(store.snapshotRevision == 7)
            let rows = try storeInteger(store, "SELECT count(*) FROM journal")
            #expect(rows == 3)
            try store.append(storeRecords(from: 11, count: 2))
            store.close()

            let reopened = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            defer { reopened.close() }
            let contents = try reopened.load()
            #expect(contents.snapshot?.revision == 7)
            #expect(contents.snapshot?.document == document)
            #expect(contents.journal.map(\.revision) == [8, 9, 10, 11, 12])
            #expect(reopened.journalLength == 5)

            try writeStoreSnapshot(reopened, revision: 12, document: Array("at 12".utf8))
            #expect(reopened.journalLength == 0)
            #expect(try reopened.load().journal.isEmpty)
            #expect(try reopened.load().snapshot?.document == Array("at 12".utf8))
        }
    }

    @Test func anOlderSnapshotIsRefused() throws {
        try withFreshStore("older") { store, _ in
            try writeStoreSnapshot(store, revision: 5, document: [1])
            #expect(throws: StoreError.self) { try writeStoreSnapshot(store, revision: 4, document: [2]) }
            #expect(try store.load().snapshot?.document == [1])
        }
    }

    @Test func aFailedBatchStoresNothingAndTheStoreStaysUsable() throws {
        try withFreshStore("batch") { store, temporary in
            try store.append(storeRecords(from: 1, count: 3))
            // Revision 3 is already stored: the whole batch 4, 5, 3 must be refused.
            let clash = storeRecords(from: 4, count: 2) + [StoredRecord(revision: 3, nextId: 30, payload: [9])]
            let error = #expect(throws: StoreError.self) { try store.append(clash) }
            #expect(error?.kind == .writeFailed)
            #expect(error?.message.contains(temporary.databaseFile) == true)
            #expect(error?.message.contains("UNIQUE") == true)
            #expect(store.journalLength == 3)
            #expect(try store.load().journal.map(\.revision) == [1, 2, 3])
            try store.append(storeRecords(from: 4, count: 2))
            #expect(try store.load().journal.map(\.revision) == [1, 2, 3, 4, 5])
        }
    }

    @Test func aSecondConnectionSeesEveryCommittedAppend() throws {
        // The kill -9 test runs at the daemon level; here another connection, which only sees
        // what reached the file, stands in for the process that starts after a crash.
        let temporary = try StoreTemporaryDirectory("second")
        defer { temporary.remove() }
        let writer = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { writer.close() }
        let written = storeRecords(from: 1, count: 100)
        for record in written { try writer.append([record]) }
        try writeStoreSnapshot(writer, revision: 60, document: [6, 0])
        try writer.append(storeRecords(from: 101, count: 5))

        let reader = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { reader.close() }
        let contents = try reader.load()
        #expect(contents.snapshot?.revision == 60)
        #expect(contents.journal == Array(written[60...]) + storeRecords(from: 101, count: 5))
        #expect(reader.journalLength == 45)
    }

    @Test func aClosedStoreSaysSo() throws {
        try withFreshStore("closed") { store, _ in
            store.close()
            store.close()
            let error = #expect(throws: StoreError.self) { try store.append(storeRecords(from: 1, count: 1)) }
            #expect(error?.kind == .closed)
        }
    }

    @Test func theSnapshotPolicyWaitsForEnoughJournal() {
        let policy = SnapshotPolicy()
        #expect(!policy.shouldSnapshot(rows: 127, journalBytes: 1_000_000, snapshotBytes: 10))
        #expect(policy.shouldSnapshot(rows: 128, journalBytes: 1_001, snapshotBytes: 1_000))
        #expect(!policy.shouldSnapshot(rows: 999, journalBytes: 999, snapshotBytes: 1_000))
        #expect(policy.shouldSnapshot(rows: 1_000, journalBytes: 1, snapshotBytes: 1_000_000))
    }

    @Test func theStoreTellsWhenToSnapshot() throws {
        let temporary = try StoreTemporaryDirectory("policy")
        defer { temporary.remove() }
        let store = try StateStore(
            directory: temporary.stateDirectory, durability: .normal,
            policy: SnapshotPolicy(maximumJournalRows: 50, minimumJournalRows: 10))
        defer { store.close() }
        try writeStoreSnapshot(store, revision: 0, document: [UInt8](repeating: 7, count: 10_000))
        try store.append(storeRecords(from: 1, count: 49, payloadSize: 16))
        #expect(!store.shouldSnapshot)
        try store.append(storeRecords(from: 50, count: 1, payloadSize: 16))
        #expect(store.shouldSnapshot)
        try writeStoreSnapshot(store, revision: 50, document: [UInt8](repeating: 7, count: 100))
        #expect(!store.shouldSnapshot)
        try store.append(storeRecords(from: 51, count: 10, payloadSize: 16))
        #expect(store.shouldSnapshot, "10 rows of 16 bytes outweigh a 100-byte snapshot")
    }
}
