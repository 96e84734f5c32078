import Testing
import NavdService

/// A store opened `exclusive` (as navd opens its own) keeps the file to itself while open and
/// loses nothing it committed.
struct StoreExclusiveTests {
    @Test func anExclusiveStoreKeepsOtherConnectionsOutAndItsCommitsAfterClosing() throws {
        let temporary = try StoreTemporaryDirectory("exclusive")
        defer { temporary.remove() }
        let writer = try StateStore(directory: temporary.stateDirectory, durability: .normal, exclusive: true)
        for record in storeRecords(from: 1, count: 20) { try writer.append([record]) }
        try writeStoreSnapshot(writer, revision: 12, document: [1, 2])
        try writer.append(storeRecords(from: 21, count: 3))
        #expect(try writer.load().journal.map(\.revision) == Array(13...23))

        // SQLite's lock is held between commits: another connection cannot even read.
        #expect(throws: StoreError.self) {
            let intruder = try StateStore(directory: temporary.stateDirectory, durability: .normal)
            _ = try intruder.load()
            intruder.close()
        }

        writer.close()
        let reopened = try StateStore(directory: temporary.stateDirectory, durability: .normal, exclusive: true)
        defer { reopened.close() }
        let contents = try reopened.load()
        #expect(contents.snapshot?.revision == 12)
        #expect(contents.snapshot?.document == [1, 2])
        #expect(contents.journal == storeRecords(from: 13, count: 11))
    }
}
