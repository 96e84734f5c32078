import Foundation
import Testing
@testable import NavdService

/// A write that does not fit stores nothing, says why, and leaves the store usable.
@Suite(.timeLimit(.minutes(1)))
struct StoreDiskFullTests {
    @Test func aFullDatabaseRefusesTheBatchAndRecoversWhenThereIsRoom() throws {
        try withFreshStore("full") { store, temporary in
            try store.append(storeRecords(from: 1, count: 5))
            // SQLite's own page limit: the same SQLITE_FULL path as a full disk, inside the library.
            let pages = try storeInteger(store, "PRAGMA page_count") ?? 0
            _ = try storeInteger(store, "PRAGMA max_page_count = \(pages + 4)")
            let (revision, failure) = appendUntilRefused(store, from: 6, count: 2, payloadSize: 3_000, limit: 200)
            let error = try #require(failure, "the page limit was never reached")
            print("disk full as expected: \(error.message)")
            #expect(error.kind == .writeFailed)
            #expect(error.message.contains("full"))
            #expect(error.message.contains(temporary.databaseFile))
            let stored = try store.load().journal.map(\.revision)
            #expect(stored == Array(1..<revision), "the refused batch left nothing behind")
            #expect(store.journalLength == stored.count)

            _ = try storeInteger(store, "PRAGMA max_page_count = 1000000")
            try store.append(storeRecords(from: revision, count: 2, payloadSize: 3_000))
            #expect(try store.load().journal.last?.revision == revision + 1)
        }
    }

    @Test func anEmptyPayloadIsStoredAsEmpty() throws {
        try withFreshStore("emptypayload") { store, _ in
            let records = [StoredRecord(revision: 1, nextId: 3, payload: []), StoredRecord(revision: 2, nextId: 4, payload: [0])]
            try store.append(records)
            #expect(try store.load().journal == records)
        }
    }
}
