import Foundation
import Testing
import NavdService
import TestSupport

/// A writer killed with SIGKILL in the middle of a stream of appends loses nothing it had
/// reported as committed.
///
/// The writer is this test binary run again with `NAVD_STORE_CRASH_DIR` set: it appends one
/// record at a time (snapshotting when the store asks) and prints each committed revision. The
/// daemon-level kill -9 test (answered calls survive) is the end-to-end counterpart.
@Suite(.timeLimit(.minutes(2)))
struct StoreCrashTests {
    static let directoryVariable = "NAVD_STORE_CRASH_DIR"

    @Test func killingTheWriterLosesNoCommittedRevision() throws {
        if let directory = ProcessInfo.processInfo.environment[Self.directoryVariable] {
            try writeUntilKilled(in: directory)
            return
        }
        let temporary = try StoreTemporaryDirectory("crash")
        defer { temporary.remove() }
        let writer = try ChildProcess(
            launching: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            arguments: ["--testing-library", "swift-testing", "--filter", "killingTheWriterLosesNoCommittedRevision"],
            environment: [Self.directoryVariable: temporary.stateDirectory])

        // Let it commit a few thousand revisions (several snapshots), then kill it mid-stream.
        let deadline = Date().addingTimeInterval(60)
        var reported: [UInt64] = []
        while Date() < deadline && writer.isRunning {
            usleep(50_000)
            reported = committedRevisions(in: writer.stdoutText)
            if (reported.last ?? 0) >= 3_000 { break }
        }
        let status = writer.stop(with: SIGKILL)
        reported = committedRevisions(in: writer.stdoutText)
        let lastReported = try #require(reported.last, "the writer reported no commit")
        #expect(status == 128 + SIGKILL, "the writer should end by the SIGKILL, not on its own (status \(status.map(String.init) ?? "?"))")

        let store = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        defer { store.close() }
        let contents = try store.load()
        let snapshotRevision = contents.snapshot?.revision ?? 0
        let journal = contents.journal.map(\.revision)
        let lastStored = journal.last ?? snapshotRevision
        print("crash: writer killed after reporting revision \(lastReported); the store holds up to \(lastStored) "
            + "(snapshot \(snapshotRevision) + \(journal.count) journal rows)")
        #expect(lastStored >= lastReported, "a reported commit was lost")
        #expect(journal == Array((snapshotRevision + 1)..<(lastStored + 1)), "the journal continues the snapshot without gaps")
        #expect(contents.journal == storeRecords(from: snapshotRevision + 1, count: journal.count), "payloads intact")
        #expect(contents.snapshot?.document == contents.snapshot.map { Array("state at \($0.revision)".utf8) })
    }

    /// The revisions the writer printed as committed (in its output `text`), in order.
    func committedRevisions(in text: String) -> [UInt64] {
        text.split(separator: "\n").compactMap { line in
            line.hasPrefix("committed ") ? UInt64(line.dropFirst("committed ".count)) : nil
        }
    }

    /// The child's side: append forever, reporting each commit once it returned.
    func writeUntilKilled(in directory: String) throws {
        let store = try StateStore(directory: directory, durability: .normal)
        var revision: UInt64 = 1
        while true {
            try store.append(storeRecords(from: revision, count: 1))
            print("committed \(revision)")
            fflush(nil)  // every open stream, stdout included
            if store.shouldSnapshot {
                try writeStoreSnapshot(store, revision: revision, document: Array("state at \(revision)".utf8))
            }
            revision += 1
        }
    }
}
