import DBus
import Foundation
import Navigation
import SQLite
import Testing
import TestSupport

/// What the state file held at one kill, and what the restart after it cost.
struct WorstCaseSample: Sendable, CustomStringConvertible {
    var history = 0
    var databaseBytes = 0
    var databaseBytesAfterRestart = 0
    /// The write-ahead log's share of `databaseBytes` and `databaseBytesAfterRestart`.
    var logBytes = (0, 0)
    var snapshotBytes = 0
    var journalRows = 0
    var journalBytes = 0
    var restartSeconds = 0.0
    var residentKiB = 0
    var peakResidentKiB = 0

    var description: String {
        "revision=\(history) db=\(mib(databaseBytes)) db-after-restart=\(mib(databaseBytesAfterRestart)) (log \(mib(logBytes.0)) → \(mib(logBytes.1))) snapshot=\(mib(snapshotBytes)) journal=\(journalRows)rows/\(mib(journalBytes)) restart=\(String(format: "%.2f", restartSeconds))s rss=\(mib(residentKiB * 1024)) peak-rss=\(mib(peakResidentKiB * 1024))"
    }
}

/// Bytes as MiB with one decimal, for the figures.
func mib(_ bytes: Int) -> String { String(format: "%.1fMiB", Double(bytes) / 1_048_576) }

extension ReliabilityTests {
    /// The worst state the default limits allow (`docs/durability.md#bounded-saved-state`): 128 screens whose params are at
    /// their limit (64 KiB a call), then pop/push pairs with new 64 KiB params until `max-undo`
    /// 100 keeps its most (200 steps), with their history; then a journal filled to just below
    /// the snapshot's size (the store compacts once it outweighs the snapshot after 128 rows) by
    /// changes that keep those steps (a 64 KiB fact each). navd is killed after the steps are
    /// filled and again with the journal full; each time the state file's snapshot, journal and
    /// size are read, navd is started again (start to first answer) and its memory read. The
    /// journal stays within about the snapshot's size, so the file stays within a few snapshots.
    /// Times are figures, not assertions.
    @Test(.timeLimit(.minutes(20)))
    func theWorstStateTheDefaultLimitsAllowStaysBoundedAndRestarts() async throws {
        let routes = """
            root: home
            routes:
              home: {}
              page: { params: { body: string } }
            facts:
              note: { type: string, default: "" }

            """
        try await Self.withNavd("worst-case", routes: routes) { run in
            let samples = try await onThread("worst-case") { try Self.fillWorstCase(run) }
            var figures = Figures("worst-case-state")
            figures.add("max-database", mib(samples.map(\.databaseBytes).max() ?? 0))
            figures.add("max-database-after-restart", mib(samples.map(\.databaseBytesAfterRestart).max() ?? 0))
            figures.add("max-snapshot", mib(samples.map(\.snapshotBytes).max() ?? 0))
            figures.add("max-journal", mib(samples.map(\.journalBytes).max() ?? 0))
            figures.add("max-restart-s", String(format: "%.2f", samples.map(\.restartSeconds).max() ?? 0))
            figures.add("max-rss-after-restart", mib((samples.map(\.residentKiB).max() ?? 0) * 1024))
            figures.add("max-peak-rss-during-restart", mib((samples.map(\.peakResidentKiB).max() ?? 0) * 1024))
            figures.print()
            for sample in samples { print("reliability: worst-case-state sample \(sample)") }
            #expect(samples.count == 2)
            let full = try #require(samples.last)
            #expect(full.journalBytes * 10 >= full.snapshotBytes * 9, "the last kill finds the journal nearly full: \(full)")
            // A row is at most one call's 64 KiB of params plus its record's few bytes.
            let row = 66_000
            // The snapshot written at the restart also keeps, with each replayed change, the state after it
            // (docs/devtools.md): the journal's params move into it, so it can reach the snapshot plus the journal.
            let largest = max(samples.map { $0.snapshotBytes + $0.journalBytes }.max() ?? 0, 128 * row)
            for sample in samples {
                #expect(sample.journalBytes <= max(sample.snapshotBytes, 128 * row) + row, "\(sample)")
                // The file holds the snapshot and the journal, and at a compaction the new snapshot
                // beside the old one (freed pages are reused, not given back); the log holds up to
                // 4 MiB, and one compaction (about a snapshot) until its next checkpoint.
                #expect(max(sample.databaseBytes, sample.databaseBytesAfterRestart) <= 4 * largest + 4 << 20, "\(sample)")
            }
        }
    }

    /// Builds the worst state on `run`'s navd, killing it once the undo steps are full and once
    /// the journal is; returns what each kill left and what each restart cost.
    static func fillWorstCase(_ run: ReliabilityRun) throws -> [WorstCaseSample] {
        let client = try Connection(.address(run.bus.address))
        defer { client.close() }
        let longest = Limits().maxParamsBytes - InputValue.estimatedEncodedSize(of: ["body": .string("")])
        var count = 0
        /// A different string of the longest length params may have.
        func body() -> String {
            count += 1
            let tag = "\(count):"
            return tag + String(repeating: "x", count: longest - tag.utf8.count)
        }
        func push() throws {
            _ = try client.navigator("Push", [.string("page"), .vardict([("body", .string(body()))])], timeoutMilliseconds: 60_000)
        }
        func setNote() throws {
            _ = try client.navigator("SetFacts", [.vardict([("note", .string(body()))])], timeoutMilliseconds: 60_000)
        }
        var samples: [WorstCaseSample] = []
        // 127 pushes on the root: 128 screens and 127 undo steps; each pop/push pair adds 2
        // steps, and past 200 the list is cut to 100, so after 87 pairs 200 steps are kept.
        for _ in 0..<127 { try push() }
        for _ in 0..<87 {
            _ = try client.navigator("Pop", timeoutMilliseconds: 60_000)
            try push()
        }
        samples.append(try killAndRestart(run))
        // One fact change, to learn the sizes of the snapshot and of a row; then rows up to just
        // below the snapshot's size (the restart before replayed that row into a new snapshot).
        try setNote()
        let probe = try killAndRestart(run)
        let rows = max(128, probe.snapshotBytes / max(1, probe.journalBytes) - 1)
        for _ in 0..<rows { try setNote() }
        samples.append(try killAndRestart(run))
        return samples
    }

    /// `kill -9`, the state file's figures, a start (timed) and navd's memory once it answers.
    static func killAndRestart(_ run: ReliabilityRun) throws -> WorstCaseSample {
        run.navd.kill9()
        var sample = WorstCaseSample()
        sample.databaseBytes = run.navd.databaseBytes
        sample.logBytes.0 = fileBytes(run.directory + "/navd.sqlite3-wal")
        let db = try Database(path: run.directory + "/navd.sqlite3", flags: [.readOnly])
        defer { db.close() }
        // The saved state a restart reads instead of the journal: the snapshot and its segments (schema 4).
        sample.snapshotBytes = try db.firstRow("""
            SELECT (SELECT coalesce(sum(length(document)), 0) FROM snapshot)
                 + (SELECT coalesce(sum(length(document)), 0) FROM history_segment)
            """) { Int($0.int64(at: 0)) } ?? 0
        (sample.journalRows, sample.journalBytes) = try db.firstRow("SELECT count(*), coalesce(sum(length(payload)), 0) FROM journal") {
            (Int($0.int64(at: 0)), Int($0.int64(at: 1)))
        } ?? (0, 0)
        sample.history = try db.firstRow("SELECT max(revision) FROM journal") { Int($0.int64(at: 0)) } ?? 0
        db.close()
        sample.restartSeconds = try run.navd.start(timeout: 60)
        sample.residentKiB = ProcessStatistics.residentKiB(run.navd.pid) ?? 0
        sample.peakResidentKiB = ProcessStatistics.peakResidentKiB(run.navd.pid) ?? 0
        sample.databaseBytesAfterRestart = run.navd.databaseBytes
        sample.logBytes.1 = fileBytes(run.directory + "/navd.sqlite3-wal")
        return sample
    }
}

/// The size of the file at `path` (0 when there is none).
func fileBytes(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}
