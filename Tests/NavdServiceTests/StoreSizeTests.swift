import Foundation
import Testing
@testable import NavdService

/// The state file holds about one snapshot and its journal, never two snapshots (docs/durability.md#bounded-saved-state),
/// and a large snapshot does not leave its copy in the log.
@Suite struct StoreSizeTests {
    /// The database file and its log, in bytes.
    static func fileBytes(_ temporary: StoreTemporaryDirectory) -> (database: Int, log: Int) {
        let path = temporary.stateDirectory + "/" + StateStore.fileName
        return (storeFileSize(path), storeFileSize(path + "-wal"))
    }

    @Test func aNewSnapshotIsWrittenIntoTheOldOnesPagesAndTheLogIsCutBack() throws {
        try withFreshStore("size") { store, temporary in
            let size = 8 << 20
            // A first snapshot and rows worth another, each document a different 8 MiB, then two more snapshots
            // (the second folds the rows in, as the restart of a full journal does).
            try writeStoreSnapshot(store, revision: 1, document: [UInt8](repeating: 1, count: size))
            try store.append(storeRecords(from: 2, count: 128, payloadSize: size / 128))
            try writeStoreSnapshot(store, revision: 129, document: [UInt8](repeating: 2, count: 2 * size))
            try writeStoreSnapshot(store, revision: 130, document: [UInt8](repeating: 3, count: 2 * size))
            let (database, log) = Self.fileBytes(temporary)
            // Before, the file held the old snapshot and rows beside the new one (about 5 × 8 MiB) and the log
            // kept the last document (16 MiB) until the next commit.
            #expect(database <= 2 * size + size / 2, "database \(database) bytes for one 16 MiB snapshot")
            #expect(log <= StateStore.logSizeLimit, "log \(log) bytes")
            #expect(try store.load().snapshot?.document == [UInt8](repeating: 3, count: 2 * size))
        }
    }
}
