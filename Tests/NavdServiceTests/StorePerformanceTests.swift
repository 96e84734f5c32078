import Foundation
import Testing
import NavdService

/// Costs and sizes of the store, printed for the record; no timing is asserted.
///
/// `NAVD_STORE_APPENDS` raises the number of appends of the growth test (say 1000000).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct StorePerformanceTests {
    /// Microseconds elapsed while running `body`.
    func microseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000
    }

    @Test(arguments: Durability.allCases)
    func commitCost(durability: Durability) throws {
        try withFreshStore("cost", durability: durability) { store, _ in
            let singles = durability == .full ? 200 : 3_000
            let batches = durability == .full ? 50 : 300
            var revision: UInt64 = 1
            // Warm-up: statements prepared, log file grown.
            for record in storeRecords(from: revision, count: 200, payloadSize: 100) { try store.append([record]) }
            revision += 200
            let records = storeRecords(from: revision, count: singles, payloadSize: 100)
            var samples: [Double] = []
            for record in records {
                samples.append(try microseconds { try store.append([record]) })
            }
            revision += UInt64(singles)
            var batchSamples: [Double] = []
            for _ in 0..<batches {
                let batch = storeRecords(from: revision, count: 32, payloadSize: 100)
                batchSamples.append(try microseconds { try store.append(batch) })
                revision += 32
            }
            samples.sort()
            batchSamples.sort()
            let mean = samples.reduce(0, +) / Double(samples.count)
            let batchMean = batchSamples.reduce(0, +) / Double(batchSamples.count)
            print("""
                store commit (\(durability.rawValue)): 1 record of 100 B: p50 \(format(samples[samples.count / 2])) µs, \
                p99 \(format(samples[samples.count * 99 / 100])) µs, mean \(format(mean)) µs over \(singles); \
                batch of 32: p50 \(format(batchSamples[batchSamples.count / 2])) µs, mean \(format(batchMean)) µs \
                (\(format(batchMean / 32)) µs per record) over \(batches)
                """)
            #expect(try store.load().journal.count == 200 + singles + 32 * batches)

            let loadTime = try microseconds { _ = try store.load() }
            print("store load of \(store.journalLength) journal rows: \(format(loadTime)) µs")
        }
    }

    @Test func sizesStayBoundedOverManyAppends() throws {
        let appends = Int(ProcessInfo.processInfo.environment["NAVD_STORE_APPENDS"] ?? "") ?? 20_000
        try withFreshStore("growth") { store, temporary in
            let logFile = temporary.databaseFile + "-wal"
            // A state of about 8 KiB, rewritten whole at each snapshot.
            let document = [UInt8](repeating: 0x5A, count: 8_192)
            var largestDatabase = 0
            var largestLog = 0
            var snapshots = 0
            var revision: UInt64 = 0
            let elapsed = try microseconds {
                while revision < UInt64(appends) {
                    let batch = Int(revision % 7 == 0 ? 8 : 1)
                    try store.append(storeRecords(from: revision + 1, count: batch, payloadSize: 120))
                    revision += UInt64(batch)
                    if store.shouldSnapshot {
                        try writeStoreSnapshot(store, revision: revision, document: document)
                        snapshots += 1
                        largestDatabase = max(largestDatabase, storeFileSize(temporary.databaseFile))
                        largestLog = max(largestLog, storeFileSize(logFile))
                    }
                }
            }
            largestDatabase = max(largestDatabase, storeFileSize(temporary.databaseFile))
            largestLog = max(largestLog, storeFileSize(logFile))
            print("""
                store growth: \(revision) changes, \(snapshots) snapshots in \(format(elapsed / 1_000_000)) s \
                (\(format(elapsed / Double(revision))) µs per change); largest database file \(largestDatabase) B, \
                largest log file \(largestLog) B
                """)
            // The live data is one snapshot (8 KiB) plus at most 1,000 journal rows of ~130 B (under
            // 256 KiB with b-tree overhead); freed pages are reused, so 512 KiB is a generous bound
            // that does not depend on the number of changes.
            #expect(largestDatabase < 512 * 1_024)
            // The log holds at most the checkpoint interval (1,000 pages of 4 KiB plus frame headers)
            // plus the last transaction before it is reset and truncated to 4 MiB.
            #expect(largestLog < 4_400_000)
            let contents = try store.load()
            #expect(contents.snapshot != nil)
            #expect(contents.journal.count == store.journalLength)
            #expect((contents.journal.last?.revision ?? contents.snapshot!.revision) == revision)
        }
    }
}

/// `value` with one decimal.
private func format(_ value: Double) -> String {
    String(format: "%.1f", value)
}
